// SPDX-License-Identifier: MIT
/*
 * Reading instruction attributes: "name=value" in the syntax of each
 * kind.  Attributes that cannot change a value are skipped whole; any
 * other name XRT does not know is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "hlo_parse.h"

/* Appends one value to a growing int array. */
static int push(struct hp *p, struct ir_attr *a, uint32_t *cap, int64_t v)
{
	uint32_t n = a->n;

	if (hp_grow(p, (void **)&a->ints, cap, n + 1, sizeof(*a->ints)))
		return -1;
	a->ints[a->n++] = v;
	return 0;
}

/* {1, 2, 3} */
static int parse_ints(struct hp *p, struct ir_attr *a)
{
	uint32_t cap = 0;
	int64_t v;

	if (hp_expect(p, '{', "to open a list"))
		return -1;
	if (hp_accept(p, '}'))
		return 0;
	do {
		if (hp_int(p, &v, "an integer") || push(p, a, &cap, v))
			return -1;
	} while (hp_accept(p, ','));
	return hp_expect(p, '}', "to close a list");
}

/* {[0:2], [1:7:2]}: start, limit, stride per dimension. */
static int parse_slice(struct hp *p, struct ir_attr *a)
{
	uint32_t cap = 0, dims = 0;
	int64_t v[3];

	if (hp_expect(p, '{', "to open a slice"))
		return -1;
	if (hp_accept(p, '}'))
		return 0;
	do {
		v[2] = 1;
		if (hp_expect(p, '[', "to open a slice range") ||
		    hp_int(p, &v[0], "a slice start") ||
		    hp_expect(p, ':', "after the slice start") ||
		    hp_int(p, &v[1], "a slice limit"))
			return -1;
		if (hp_accept(p, ':') && hp_int(p, &v[2], "a slice stride"))
			return -1;
		if (hp_expect(p, ']', "to close a slice range") ||
		    push(p, a, &cap, v[0]) || push(p, a, &cap, v[1]) ||
		    push(p, a, &cap, v[2]))
			return -1;
		dims++;
	} while (hp_accept(p, ','));
	a->n = dims;
	return hp_expect(p, '}', "to close a slice");
}

/* 0_0x1_1_2: low_high[_interior] per dimension, 'x' between. */
static int parse_padding(struct hp *p, struct ir_attr *a)
{
	uint32_t cap = 0, dims = 0;
	int64_t lo, hi, in;

	hp_skip(p);
	do {
		in = 0;
		if (hp_int(p, &lo, "a low padding") ||
		    hp_expect(p, '_', "between paddings") ||
		    hp_int(p, &hi, "a high padding"))
			return -1;
		if (p->pos < p->len && p->t[p->pos] == '_') {
			p->pos++;
			if (hp_int(p, &in, "an interior padding"))
				return -1;
		}
		if (push(p, a, &cap, lo) || push(p, a, &cap, hi) || push(p, a, &cap, in))
			return -1;
		dims++;
	} while (p->pos < p->len && p->t[p->pos] == 'x' && ++p->pos);
	a->n = dims;
	return 0;
}

/* An 'x'-separated list of numbers (or of lo_hi pairs for pad=). */
static int window_field(struct hp *p, int64_t *v, uint32_t *n, bool pairs)
{
	*n = 0;
	do {
		if (*n == XRT_MAX_RANK)
			return hp_fail(p, "window with more than 8 dimensions");
		if (hp_int(p, &v[*n * 2], "a window value"))
			return -1;
		v[*n * 2 + 1] = 0;
		if (pairs && (hp_expect(p, '_', "between window paddings") ||
			      hp_int(p, &v[*n * 2 + 1], "a window high padding")))
			return -1;
		(*n)++;
	} while (p->pos < p->len && p->t[p->pos] == 'x' && ++p->pos);
	return 0;
}

/* {size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=1x1 rhs_dilate=1x1 rhs_reversal=0x0} */
static int parse_window(struct hp *p, struct ir_attr *a)
{
	static const char *const fields[] = { "size", "stride", "pad", "lhs_dilate",
					      "rhs_dilate", "rhs_reversal" };
	int64_t vals[6][XRT_MAX_RANK * 2];
	uint32_t counts[6] = { 0 }, d, f;
	const char *s;
	size_t n;

	if (hp_expect(p, '{', "to open a window"))
		return -1;
	while (!hp_accept(p, '}')) {
		if (hp_word(p, &s, &n, "a window field") ||
		    hp_expect(p, '=', "after a window field"))
			return -1;
		for (f = 0; f < 6; f++) {
			if (strlen(fields[f]) == n && !memcmp(fields[f], s, n))
				break;
		}
		if (f == 6)
			return hp_fail(p, "unknown window field '%.*s'", (int)n, s);
		if (counts[f]) {
			p->pos = (size_t)(s - p->t);
			return hp_fail(p, "window field '%s' given twice", fields[f]);
		}
		hp_skip(p);
		if (window_field(p, vals[f], &counts[f], f == 2))
			return -1;
	}
	if (!counts[0])
		return hp_fail(p, "window without a size");
	a->n = counts[0];
	for (f = 1; f < 6; f++) {
		if (counts[f] && counts[f] != a->n)
			return hp_fail(p, "window field '%s' has %u dimensions, size has %u",
				       fields[f], counts[f], a->n);
	}
	a->ints = xrt_mem_calloc(p->a, a->n * IR_WINDOW_FIELDS, sizeof(*a->ints));
	if (!a->ints)
		return hp_oom(p);
	for (d = 0; d < a->n; d++) {
		int64_t *w = a->ints + d * IR_WINDOW_FIELDS;

		w[0] = vals[0][d * 2];
		w[1] = counts[1] ? vals[1][d * 2] : 1;
		w[2] = counts[2] ? vals[2][d * 2] : 0;
		w[3] = counts[2] ? vals[2][d * 2 + 1] : 0;
		w[4] = counts[3] ? vals[3][d * 2] : 1;
		w[5] = counts[4] ? vals[4][d * 2] : 1;
		w[6] = counts[5] ? vals[5][d * 2] : 0;
	}
	return 0;
}

/* {{0,1},{2,3}}: each group pushed as its length, then its ids. */
static int parse_group_list(struct hp *p, struct ir_attr *a)
{
	uint32_t cap = 0, len_at;
	int64_t v;

	if (hp_accept(p, '}'))
		return 0;
	do {
		if (hp_expect(p, '{', "to open a group"))
			return -1;
		len_at = a->n;
		if (push(p, a, &cap, 0))
			return -1;
		if (!hp_accept(p, '}')) {
			do {
				if (hp_int(p, &v, "an id") || push(p, a, &cap, v))
					return -1;
				a->ints[len_at]++;
			} while (hp_accept(p, ','));
			if (hp_expect(p, '}', "to close a group"))
				return -1;
		}
		if (a->n > IR_MAX_GROUP_INTS)
			return hp_fail(p, "more than %d ids in groups", IR_MAX_REPLICAS);
	} while (hp_accept(p, ','));
	return hp_expect(p, '}', "to close the groups");
}

/* [a,b,...]: up to @max positive numbers; their count. */
static int bracketed(struct hp *p, char open, char close, int64_t *v, uint32_t max,
		     uint32_t *n, const char *what)
{
	char where[64];

	snprintf(where, sizeof(where), "to open %s", what);
	if (hp_expect(p, open, where))
		return -1;
	*n = 0;
	do {
		if (*n == max)
			return hp_fail(p, "more than %u numbers in %s", max, what);
		if (hp_int(p, &v[*n], "a number"))
			return -1;
		(*n)++;
	} while (hp_accept(p, ','));
	snprintf(where, sizeof(where), "to close %s", what);
	return hp_expect(p, close, where);
}

/*
 * [G,S]<=[d...]T(perm): the ids 0 .. n-1 laid out as d, transposed by
 * perm (identity without T), read in row-major order as G groups of S.
 */
static int parse_iota_groups(struct hp *p, struct ir_attr *a)
{
	int64_t gs[2], d[XRT_MAX_RANK], perm[XRT_MAX_RANK], total = 1, idx[XRT_MAX_RANK];
	int64_t stride[XRT_MAX_RANK], k, id;
	uint32_t ng, nd, np, i, cap = 0;
	size_t at = (hp_skip(p), p->pos);

	if (bracketed(p, '[', ']', gs, 2, &ng, "the group dimensions"))
		return -1;
	hp_skip(p);
	if (ng != 2 || p->pos + 1 >= p->len || memcmp(p->t + p->pos, "<=", 2))
		return (p->pos = at), hp_fail(p, "expected [groups,size]<=[dims] replica groups");
	p->pos += 2;
	if (bracketed(p, '[', ']', d, XRT_MAX_RANK, &nd, "the iota dimensions"))
		return -1;
	for (i = 0; i < nd; i++) {
		perm[i] = i;
		if (d[i] < 1 || d[i] > IR_MAX_REPLICAS || (total *= d[i]) > IR_MAX_REPLICAS)
			return (p->pos = at), hp_fail(p, "iota groups of more than %d ids",
						       IR_MAX_REPLICAS);
	}
	if (hp_keyword(p, "T")) {
		bool seen[XRT_MAX_RANK] = { false };

		if (bracketed(p, '(', ')', perm, XRT_MAX_RANK, &np, "the permutation"))
			return -1;
		for (i = 0; i < np; i++) {
			if (np != nd || perm[i] < 0 || perm[i] >= nd || seen[perm[i]])
				return (p->pos = at), hp_fail(p, "T(...) is not a permutation "
							       "of the %u iota dimensions", nd);
			seen[perm[i]] = true;
		}
	}
	/* both at most total first: their product cannot wrap */
	if (gs[0] < 1 || gs[1] < 1 || gs[0] > total || gs[1] > total || gs[0] * gs[1] != total)
		return (p->pos = at), hp_fail(p, "%lld groups of %lld are not the %lld iota ids",
					       (long long)gs[0], (long long)gs[1], (long long)total);
	for (i = nd, k = 1; i-- > 0; k *= d[i])
		stride[i] = k;
	memset(idx, 0, sizeof(idx));
	for (k = 0; k < total; k++) {
		if (k % gs[1] == 0 && push(p, a, &cap, gs[1]))
			return -1;
		for (id = 0, i = 0; i < nd; i++)
			id += idx[i] * stride[perm[i]];
		if (push(p, a, &cap, id))
			return -1;
		for (i = nd; i-- > 0 && ++idx[i] == d[perm[i]];)
			idx[i] = 0;
	}
	return 0;
}

static int parse_groups(struct hp *p, struct ir_attr *a)
{
	if (hp_peek(p, '['))
		return parse_iota_groups(p, a);
	if (hp_expect(p, '{', "to open the groups"))
		return -1;
	return parse_group_list(p, a);
}

static int parse_comp(struct hp *p, struct ir_attr *a, uint32_t *cap)
{
	const char *s;
	size_t n, at;
	uint32_t idx;

	at = (hp_skip(p), p->pos);
	if (hp_name(p, &s, &n, "a computation name"))
		return -1;
	if (hp_find_comp(p, s, n, &idx)) {
		p->pos = at;
		return hp_fail(p, "unknown computation '%.*s'", (int)n, s);
	}
	/* The computation being read is the last one; no recursion in HLO. */
	if (idx == p->m->num_comps - 1) {
		p->pos = at;
		return hp_fail(p, "computation '%.*s' calls itself", (int)n, s);
	}
	return push(p, a, cap, idx);
}

static int parse_value(struct hp *p, struct ir_attr *a)
{
	const char *s;
	size_t n;
	int64_t v;
	uint32_t cap = 0;

	switch (ir_attr_kind(a->key)) {
	case IR_INTS:
		return parse_ints(p, a);
	case IR_INT:
		if (hp_int(p, &v, "an integer") || push(p, a, &cap, v))
			return -1;
		return 0;
	case IR_BOOL:
		if (hp_keyword(p, "true"))
			v = 1;
		else if (hp_keyword(p, "false"))
			v = 0;
		else
			return hp_fail(p, "expected true or false");
		return push(p, a, &cap, v);
	case IR_WORD:
		if (hp_word(p, &s, &n, "a word"))
			return -1;
		a->str = hp_strdup(p, s, n);
		return a->str ? 0 : -1;
	case IR_STRING:
		a->str = hp_string(p);
		return a->str ? 0 : -1;
	case IR_SLICE:
		return parse_slice(p, a);
	case IR_PADDING:
		return parse_padding(p, a);
	case IR_WINDOW:
		return parse_window(p, a);
	case IR_GROUPS:
		return parse_groups(p, a);
	case IR_COMP:
		return parse_comp(p, a, &cap);
	case IR_COMPS:
		if (hp_expect(p, '{', "to open a computation list"))
			return -1;
		if (hp_accept(p, '}'))
			return 0;
		do {
			if (parse_comp(p, a, &cap))
				return -1;
		} while (hp_accept(p, ','));
		return hp_expect(p, '}', "to close a computation list");
	}
	return hp_fail(p, "bad attribute kind");
}

/*
 * What XLA prints that cannot change a value here: hints to its own
 * passes and backends, source positions, buffer and schedule
 * assignments, precision requests the CPU backend does not act on,
 * and a reshape's inferred_dimension (which the dynamic lowering reads
 * first: where a dynamic dimension that splits takes its size).  Sorted,
 * for bsearch.
 */
static const char *const inert_attrs[] = {
	"async_execution_thread", "called_computations", "control-predecessors",
	"cross_program_prefetch_index", "custom_call_schedule", "domain", "frontend_attributes",
	"infeed_config", "inferred_dimension", "is_cross_program_prefetch", "literal", "metadata",
	"operand_precision", "origin", "outfeed_config",
	"outfeed_shape", "output_to_operand_aliasing", "padding_type", "parameter_replication",
	"result_accuracy", "schedule", "scheduling_group", "sharding", "statistics_viz",
};

static int name_cmp(const void *key, const void *elem)
{
	const struct { const char *s; size_t n; } *k = key;
	const char *e = *(const char *const *)elem;
	int c = strncmp(k->s, e, k->n);

	return c ? c : -(e[k->n] != '\0');
}

static bool inert(const char *s, size_t n)
{
	struct { const char *s; size_t n; } k = { s, n };

	return bsearch(&k, inert_attrs, sizeof(inert_attrs) / sizeof(inert_attrs[0]),
		       sizeof(inert_attrs[0]), name_cmp);
}

/* A fusion's kind says how XLA emits it, not what it computes. */
static int skip_fusion_kind(struct hp *p)
{
	static const char *const kinds[] = { "kLoop", "kInput", "kOutput", "kCustom" };
	size_t i, at = (hp_skip(p), p->pos);

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (hp_keyword(p, kinds[i]))
			return 0;
	p->pos = at;
	return hp_fail(p, "expected a fusion kind (kLoop, kInput, kOutput or kCustom)");
}

/*
 * What a custom call's handler sees (its attributes, its API version) or
 * that it must run: on other instructions XLA's hints to its backends.
 */
static bool custom_only(enum ir_attr_key key)
{
	return key == IR_ATTR_BACKEND_CONFIG || key == IR_ATTR_API_VERSION ||
	       key == IR_ATTR_CUSTOM_CALL_HAS_SIDE_EFFECT ||
	       key == IR_ATTR_OPERAND_LAYOUT_CONSTRAINTS;
}

/*
 * A custom call's backend_config in braces (an API_VERSION_TYPED_FFI
 * call's attribute dictionary), kept as its text: the verifier reads it.
 */
static int backend_dict(struct hp *p, struct ir_instr *in, struct ir_attr *attr)
{
	size_t at = p->pos;

	if (hp_skip_value(p))
		return -1;
	if (memchr(p->t + at, '\0', p->pos - at)) {
		p->pos = at;
		return hp_fail(p, "a backend_config holding a NUL byte is not supported");
	}
	attr->str = hp_strdup(p, p->t + at, p->pos - at);
	return attr->str ? hp_put_attr(p, in, attr) : -1;
}

bool hp_row_major(const struct xrt_shape *s)
{
	uint32_t i;

	if (xrt_shape_is_tuple(s)) {
		for (i = 0; i < s->tuple_count; i++)
			if (!hp_row_major(&s->tuple[i]))
				return false;
		return true;
	}
	for (i = 0; i < s->rank; i++)
		if (s->minor_to_major[i] != s->rank - 1 - i)
			return false;
	return true;
}

/*
 * Whether constraint @s has operand @k's type and dimensions (the
 * verifier counts them: a constraint past the operands passes here).
 */
static bool same_array(const struct hp *p, const struct ir_instr *in, uint32_t k,
		       const struct xrt_shape *s)
{
	const struct xrt_shape *o;

	if (k >= in->num_operands)
		return true;
	o = &p->cur->instrs[in->operands[k]].shape;
	return xrt_shape_is_tuple(o) || (o->dtype == s->dtype && o->rank == s->rank &&
					 !memcmp(o->dims, s->dims, s->rank * sizeof(s->dims[0])));
}

/*
 * operand_layout_constraints={shape, ...} of a custom call: the layout
 * each operand array is handed over in (JAX's LAPACK calls take column-
 * major matrices).  Kept as ranks and minor_to_major lists, row-major
 * ones too (so the module prints as it reads).
 */
static int layout_constraints(struct hp *p, struct ir_instr *in)
{
	int64_t v[1 + XRT_MAX_RANK];
	struct xrt_shape s;
	uint32_t d, k = 0;
	size_t end;
	xrt_status *st;

	if (hp_expect(p, '{', "to open operand_layout_constraints"))
		return -1;
	if (hp_accept(p, '}'))
		return 0;
	do {
		hp_skip(p);
		st = xrt_shape_parse_prefix(&s, p->a, p->t + p->pos, p->len - p->pos, &end);
		if (st) {
			hp_fail(p, "%s", xrt_status_message(st));
			xrt_status_free(st);
			return -1;
		}
		if (xrt_shape_is_tuple(&s)) {
			xrt_shape_deinit(&s);
			return hp_fail(p, "a tuple-shaped operand layout constraint: custom calls "
				       "are handed arrays");
		}
		p->pos += end;
		if (!same_array(p, in, k, &s)) {
			xrt_shape_deinit(&s);
			return hp_fail(p, "operand_layout_constraints: constraint %u's type or "
				       "dimensions differ from operand %u's", k, k);
		}
		v[0] = s.rank;
		for (d = 0; d < s.rank; d++)
			v[1 + d] = s.minor_to_major[d];
		xrt_shape_deinit(&s);
		k++;
		if (hp_extend(p, in, IR_ATTR_OPERAND_LAYOUT_CONSTRAINTS, v, 1 + (uint32_t)v[0], false))
			return -1;
	} while (hp_accept(p, ','));
	return hp_expect(p, '}', "to close operand_layout_constraints");
}

/* is_host_transfer= of a send or recv: false reads, true is refused. */
static int host_transfer(struct hp *p, size_t at)
{
	if (hp_keyword(p, "false"))
		return 0;
	p->pos = at;
	return hp_fail(p, "%s with is_host_transfer=true: a program takes parameters and gives "
		       "results, it has no host queues", p->pseudo);
}

int hlo_parse_attr(struct hp *p, struct ir_instr *in)
{
	struct ir_attr attr;
	const char *s;
	size_t n, at;

	at = (hp_skip(p), p->pos);
	if (hp_word(p, &s, &n, "an attribute name") ||
	    hp_expect(p, '=', "after the attribute name"))
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.key = ir_attr_from_name(s, n);
	if (attr.key == IR_ATTR_CALLS && in->op == XRT_OP_CALL)
		attr.key = IR_ATTR_TO_APPLY;	/* a fusion's callee */
	if (attr.key == IR_ATTR_COUNT && n == 4 && !memcmp(s, "kind", 4) &&
	    in->op == XRT_OP_CALL)
		return skip_fusion_kind(p);
	if (attr.key == IR_ATTR_OPERAND_LAYOUT_CONSTRAINTS && in->op == XRT_OP_CUSTOM_CALL)
		return layout_constraints(p, in);
	if (attr.key == IR_ATTR_COUNT && n == 18 && !memcmp(s, "inferred_dimension", 18))
		return hp_int(p, &p->inferred, "an inferred dimension");
	if (attr.key == IR_ATTR_COUNT && n == 5 && !memcmp(s, "delta", 5) && p->pseudo &&
	    !strcmp(p->pseudo, "rng-get-and-update-state")) {
		int64_t delta;	/* how far XLA's counter moves: no counter here */

		return hp_int(p, &delta, "a delta");
	}
	if ((attr.key == IR_ATTR_COUNT && inert(s, n)) ||
	    (custom_only(attr.key) && in->op != XRT_OP_CUSTOM_CALL))
		return hp_skip_value(p);
	if (attr.key == IR_ATTR_COUNT && n == 16 && !memcmp(s, "is_host_transfer", 16) &&
	    p->pseudo && (!strncmp(p->pseudo, "send", 4) || !strncmp(p->pseudo, "recv", 4)))
		return host_transfer(p, at);
	if (attr.key == IR_ATTR_COUNT) {
		p->pos = at;
		return hp_fail(p, "attribute '%.*s' of %s is not supported", (int)n, s,
			       p->pseudo ? p->pseudo : xrt_opcode_name(in->op));
	}
	if (ir_instr_attr(in, attr.key)) {
		p->pos = at;
		return hp_fail(p, "attribute '%.*s' given twice", (int)n, s);
	}
	if (attr.key == IR_ATTR_BACKEND_CONFIG && hp_peek(p, '{'))
		return backend_dict(p, in, &attr);
	if (parse_value(p, &attr)) {
		ir_attr_release(p->a, &attr);
		return -1;
	}
	return hp_put_attr(p, in, &attr);
}

int hp_put_attr(struct hp *p, struct ir_instr *in, struct ir_attr *attr)
{
	struct ir_attr *na;
	uint32_t i;

	/* Keep the list sorted by key: that is the printing order. */
	na = xrt_mem_calloc(p->a, in->num_attrs + 1, sizeof(*na));
	if (!na) {
		ir_attr_release(p->a, attr);
		return hp_oom(p);
	}
	for (i = 0; i < in->num_attrs && in->attrs[i].key < attr->key; i++)
		na[i] = in->attrs[i];
	na[i] = *attr;
	for (; i < in->num_attrs; i++)
		na[i + 1] = in->attrs[i];
	xrt_mem_free(p->a, in->attrs);
	in->attrs = na;
	in->num_attrs++;
	return 0;
}
