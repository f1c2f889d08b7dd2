// SPDX-License-Identifier: MIT
/*
 * What the reader's rewrites (hlo_batching.c, hlo_fft.c, hlo_mixed.c, ...) build with:
 * room for new instructions before the one just read, which moves after
 * them with its name; new instructions under names no instruction of
 * the computation has; their operands and attributes.
 */
#include <stdio.h>
#include <string.h>

#include "core/literal.h"
#include "core/mem.h"
#include "hlo_parse.h"

struct ir_attr *hp_find_attr(struct ir_instr *in, enum ir_attr_key key)
{
	return (struct ir_attr *)ir_instr_attr(in, key);
}

int64_t hp_one_int(const struct ir_instr *in, enum ir_attr_key key)
{
	const struct ir_attr *a = ir_instr_attr(in, key);

	return a && a->n == 1 ? a->ints[0] : -1;
}

void hp_drop_attr(const struct xrt_allocator *a, struct ir_instr *in, enum ir_attr_key key)
{
	struct ir_attr *at = hp_find_attr(in, key);
	uint32_t i;

	if (!at)
		return;
	i = (uint32_t)(at - in->attrs);
	ir_attr_release(a, at);
	memmove(&in->attrs[i], &in->attrs[i + 1], (in->num_attrs - i - 1) * sizeof(*at));
	in->num_attrs--;
}

/* @a's list with @add appended; sorted and checked for repeats when @sort. */
int hp_extend(struct hp *p, struct ir_instr *in, enum ir_attr_key key,
	      const int64_t *add, uint32_t n, bool sort)
{
	struct ir_attr *at = hp_find_attr(in, key), fresh = { .key = key };
	int64_t *v;
	uint32_t i, j, old;

	if (!at) {
		if (hp_put_attr(p, in, &fresh))
			return -1;
		at = hp_find_attr(in, key);
	}
	old = at->n;
	if (!n)		/* dimensions={}: the attribute, empty */
		return 0;
	v = xrt_mem_calloc(p->a, old + n, sizeof(*v));
	if (!v)
		return hp_oom(p);
	if (old)
		memcpy(v, at->ints, old * sizeof(*v));
	memcpy(v + old, add, n * sizeof(*v));
	for (i = old; sort && i < old + n; i++) {
		int64_t x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	xrt_mem_free(p->a, at->ints);
	at->ints = v;
	at->n = old + n;
	return 0;
}

/* A name for a new instruction that no instruction of the computation has. */
static char *fresh_name(struct hp *p, const char *base, const char *what, uint32_t k)
{
	char buf[96];
	uint32_t try;

	for (try = 0;; try++) {
		int n = try ? snprintf(buf, sizeof(buf), "%.60s.%s%u.%u", base, what, k, try) :
			      snprintf(buf, sizeof(buf), "%.60s.%s%u", base, what, k);

		if (ir_names_find(&p->instr_names, buf, (size_t)n) == UINT32_MAX)
			return hp_strdup(p, buf, (size_t)n);
	}
}

/* Fills the empty slot @at with a new instruction of shape @dtype[@dims]. */
struct ir_instr *hp_add_instr(struct hp *p, uint32_t at, enum xrt_opcode op,
			      const char *base, const char *what, uint32_t k,
			      enum xrt_dtype dtype, uint32_t rank, const int64_t *dims)
{
	struct ir_instr *in = &p->cur->instrs[at];
	xrt_status *st;

	in->op = op;
	in->name = fresh_name(p, base, what, k);
	if (!in->name)
		return NULL;
	if (ir_names_add(&p->instr_names, in->name, strlen(in->name), at)) {
		hp_oom(p);
		return NULL;
	}
	st = xrt_shape_init_array(&in->shape, dtype, rank, dims);
	if (st) {
		hp_fail(p, "%s", xrt_status_message(st));
		xrt_status_free(st);
		return NULL;
	}
	return in;
}

int hp_set_operands(struct hp *p, struct ir_instr *in, const uint32_t *ops, uint32_t n)
{
	if (!n)		/* an async-start of no arguments, say: nothing to hold */
		return 0;
	in->operands = xrt_mem_calloc(p->a, n, sizeof(*ops));
	if (!in->operands)
		return hp_oom(p);
	memcpy(in->operands, ops, n * sizeof(*ops));
	in->num_operands = n;
	return 0;
}

int hp_int_attr(struct hp *p, struct ir_instr *in, enum ir_attr_key key, int64_t v)
{
	struct ir_attr a = { .key = key, .n = 1 };

	a.ints = xrt_mem_calloc(p->a, 1, sizeof(*a.ints));
	if (!a.ints)
		return hp_oom(p);
	a.ints[0] = v;
	return hp_put_attr(p, in, &a);
}

/*
 * Makes room for @extra instructions before the one just read (the last),
 * which moves after them, its name with it.  Returns its new index.
 */
int hp_make_room(struct hp *p, uint32_t extra, uint32_t *at)
{
	uint32_t k = p->cur->num_instrs - 1;
	struct ir_instr g;

	if (hp_grow(p, (void **)&p->cur->instrs, &p->instr_cap, k + extra + 1,
		    sizeof(g)))
		return -1;
	ir_names_move(&p->instr_names, k, k + extra);
	g = p->cur->instrs[k];
	memset(&p->cur->instrs[k], 0, extra * sizeof(g));
	p->cur->instrs[k + extra] = g;
	p->cur->num_instrs = k + extra + 1;
	*at = k;
	return 0;
}


uint32_t hp_emit(struct hp_emit *e, enum xrt_opcode op, enum xrt_dtype t, uint32_t rank,
		 const int64_t *dims, const uint32_t *ops, uint32_t n)
{
	struct ir_instr *in;

	if (e->dry || e->failed)
		return e->at++;
	in = hp_add_instr(e->p, e->at, op, e->base, e->what, e->k++, t, rank, dims);
	if (!in || (n && hp_set_operands(e->p, in, ops, n)))
		e->failed = true;
	return e->at++;
}

uint32_t hp_emit_tuple(struct hp_emit *e, const struct xrt_shape *s, const uint32_t *ops,
		       uint32_t n)
{
	uint32_t v = hp_emit(e, XRT_OP_TUPLE, XRT_S32, 0, NULL, ops, n);	/* shape below */
	struct ir_instr *in;
	xrt_status *st;

	if (e->dry || e->failed)
		return v;
	in = &e->p->cur->instrs[v];
	xrt_shape_deinit(&in->shape);
	st = xrt_shape_copy(&in->shape, e->p->a, s);
	if (st) {
		xrt_status_free(st);
		memset(&in->shape, 0, sizeof(in->shape));
		hp_oom(e->p);
		e->failed = true;
	}
	return v;
}

void hp_emit_ints(struct hp_emit *e, uint32_t v, enum ir_attr_key key, const int64_t *x,
		  uint32_t n)
{
	if (!e->dry && !e->failed && hp_extend(e->p, &e->p->cur->instrs[v], key, x, n, false))
		e->failed = true;
}

int hp_emit_twice(struct hp_emit *e, uint32_t (*expand)(struct hp_emit *e, void *ctx), void *ctx,
		  uint32_t *out)
{
	uint32_t at;

	e->dry = true;
	e->at = 0;
	expand(e, ctx);
	if (hp_make_room(e->p, e->at, &at))
		return -1;
	e->dry = false;
	e->at = at;
	*out = expand(e, ctx);
	return e->failed ? -1 : 0;
}

int hp_emit_after(struct hp_emit *e, uint32_t (*expand)(struct hp_emit *e, void *ctx),
		  void *ctx, uint32_t *out)
{
	struct ir_comp *c = e->p->cur;
	uint32_t n = c->num_instrs;

	e->dry = true;
	e->at = 0;
	expand(e, ctx);
	if (hp_grow(e->p, (void **)&c->instrs, &e->p->instr_cap, n + e->at, sizeof(*c->instrs)))
		return -1;
	memset(&c->instrs[n], 0, e->at * sizeof(*c->instrs));
	c->num_instrs = n + e->at;
	e->dry = false;
	e->at = n;
	*out = expand(e, ctx);
	return e->failed ? -1 : 0;
}

void hp_emit_word(struct hp_emit *e, uint32_t v, enum ir_attr_key key, const char *w)
{
	struct ir_attr a = { .key = key };

	if (e->dry || e->failed)
		return;
	a.str = hp_strdup(e->p, w, strlen(w));
	if (!a.str || hp_put_attr(e->p, &e->p->cur->instrs[v], &a))
		e->failed = true;
}

uint32_t hp_emit_const(struct hp_emit *e, enum xrt_dtype t, uint32_t rank, const int64_t *dims,
		       uint8_t **data)
{
	uint32_t v = hp_emit(e, XRT_OP_CONSTANT, t, rank, dims, NULL, 0);
	struct ir_instr *in;
	xrt_status *st;

	*data = NULL;
	if (e->dry || e->failed)
		return v;
	in = &e->p->cur->instrs[v];
	st = xrt_literal_create(e->p->a, &in->shape, &in->literal);
	if (st) {
		xrt_status_free(st);
		hp_oom(e->p);
		e->failed = true;
		return v;
	}
	*data = in->literal->data;
	return v;
}

uint32_t hp_emit_slice(struct hp_emit *e, uint32_t v, enum xrt_dtype t, uint32_t rank,
		       const int64_t *from, const int64_t *to)
{
	struct ir_attr a = { .key = IR_ATTR_SLICE, .n = rank };
	int64_t d[XRT_MAX_RANK];
	uint32_t i, s;

	for (i = 0; i < rank; i++)
		d[i] = to[i] - from[i];
	s = hp_emit(e, XRT_OP_SLICE, t, rank, d, &v, 1);
	if (e->dry || e->failed)
		return s;
	a.ints = xrt_mem_calloc(e->p->a, 3 * rank, sizeof(*a.ints));
	if (!a.ints) {
		hp_oom(e->p);
		e->failed = true;
		return s;
	}
	for (i = 0; i < rank; i++) {
		a.ints[3 * i] = from[i];
		a.ints[3 * i + 1] = to[i];
		a.ints[3 * i + 2] = 1;
	}
	if (hp_put_attr(e->p, &e->p->cur->instrs[s], &a))
		e->failed = true;
	return s;
}

int hp_become(struct hp *p, enum xrt_opcode op, const uint32_t *ops, uint32_t n)
{
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1];
	uint32_t i;

	for (i = 0; i < in->num_attrs; i++)
		ir_attr_release(p->a, &in->attrs[i]);
	xrt_mem_free(p->a, in->attrs);
	in->attrs = NULL;
	in->num_attrs = 0;
	xrt_mem_free(p->a, in->operands);
	in->operands = NULL;
	in->num_operands = 0;
	in->op = op;
	return hp_set_operands(p, in, ops, n);
}
