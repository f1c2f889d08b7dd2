// SPDX-License-Identifier: MIT
/*
 * The command-stream builder.
 */
#include <stdbool.h>
#include <string.h>

#include "core/mem.h"
#include "cstream/cs_builder.h"

void cs_builder_init(struct cs_builder *b, const struct xrt_allocator *alloc)
{
	memset(b, 0, sizeof(*b));
	b->alloc = alloc;
}

void cs_builder_release(struct cs_builder *b)
{
	xrt_mem_free(b->alloc, b->cmds);
	xrt_mem_free(b->alloc, b->slots);
	xrt_status_free(b->err);
	memset(b, 0, sizeof(*b));
}

/* Grows an array to hold @need bytes; false (and b->err set) on failure. */
static bool grow(struct cs_builder *b, void **p, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 256;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	q = xrt_mem_alloc_aligned(b->alloc, n, 8);
	if (!q) {
		if (!b->err)
			b->err = xrt_status_oom(b->alloc, "a command stream");
		return false;
	}
	if (*cap)
		memcpy(q, *p, *cap);
	memset((uint8_t *)q + *cap, 0, n - *cap);
	xrt_mem_free(b->alloc, *p);
	*p = q;
	*cap = n;
	return true;
}

uint32_t cs_add_slot(struct cs_builder *b, uint64_t size, uint32_t flags)
{
	size_t cap = (size_t)b->slot_cap * sizeof(*b->slots);

	if (b->err)
		return 0;
	if (!grow(b, (void **)&b->slots, &cap,
		  (b->num_slots + 1) * sizeof(*b->slots)))
		return 0;
	b->slot_cap = (uint32_t)(cap / sizeof(*b->slots));
	b->slots[b->num_slots].size = size;
	b->slots[b->num_slots].flags = flags;
	return b->num_slots++;
}

void *cs_append(struct cs_builder *b, uint16_t op, size_t size)
{
	struct xrt_cs_cmd *c;

	size = (size + 7) & ~(size_t)7;
	if (b->err)
		return NULL;
	if (size > UINT32_MAX) {
		b->err = xrt_status_new(b->alloc, XRT_INVALID_ARGUMENT,
					"command of %zu bytes is too large", size);
		return NULL;
	}
	if (!grow(b, (void **)&b->cmds, &b->cap, b->len + size))
		return NULL;
	c = (struct xrt_cs_cmd *)(b->cmds + b->len);
	memset(c, 0, size);
	c->op = op;
	c->size = (uint32_t)size;
	b->len += size;
	b->num_commands++;
	return c;
}

struct xrt_cs_view cs_view(uint32_t slot, uint32_t dtype, uint64_t offset,
			   uint32_t rank, const uint64_t *dims,
			   const int64_t *strides)
{
	struct xrt_cs_view v;
	uint32_t i;

	memset(&v, 0, sizeof(v));
	v.slot = slot;
	v.dtype = (uint8_t)dtype;
	v.rank = (uint8_t)rank;
	v.offset = offset;
	for (i = 0; i < rank && i < XRT_CS_MAX_RANK; i++) {
		v.dims[i] = dims[i];
		v.strides[i] = strides[i];
	}
	return v;
}

struct xrt_cs_view cs_view_dense(uint32_t slot, uint32_t dtype, uint64_t offset,
				 uint32_t rank, const uint64_t *dims)
{
	int64_t strides[XRT_CS_MAX_RANK] = { 0 };
	int64_t s = 1;
	int i;

	for (i = (int)rank - 1; i >= 0; i--) {
		if (i < XRT_CS_MAX_RANK)
			strides[i] = s;
		s *= (int64_t)dims[i];
	}
	return cs_view(slot, dtype, offset, rank, dims, strides);
}

void cs_copy(struct cs_builder *b, const struct xrt_cs_view *dst,
	     const struct xrt_cs_view *src)
{
	struct xrt_cs_copy *c = cs_append(b, XRT_CS_OP_COPY, sizeof(*c));

	if (c) {
		c->dst = *dst;
		c->src = *src;
	}
}

void cs_fill_constant(struct cs_builder *b, const struct xrt_cs_view *dst,
		      const void *value, size_t size)
{
	struct xrt_cs_fill *c = cs_append(b, XRT_CS_OP_FILL, sizeof(*c));

	if (c) {
		c->mode = XRT_CS_FILL_CONSTANT;
		c->dst = *dst;
		memcpy(c->value, value, size < 16 ? size : 16);
	}
}

void cs_fill_iota(struct cs_builder *b, const struct xrt_cs_view *dst,
		  uint32_t dim)
{
	struct xrt_cs_fill *c = cs_append(b, XRT_CS_OP_FILL, sizeof(*c));

	if (c) {
		c->mode = XRT_CS_FILL_IOTA;
		c->iota_dim = dim;
		c->dst = *dst;
	}
}

void cs_fill_id(struct cs_builder *b, const struct xrt_cs_view *dst, uint32_t mode)
{
	struct xrt_cs_fill *c = cs_append(b, XRT_CS_OP_FILL, sizeof(*c));

	if (c) {
		c->mode = mode;
		c->dst = *dst;
	}
}

void cs_jump(struct cs_builder *b, uint32_t mode, uint32_t target,
	     const struct xrt_cs_scalar *pred)
{
	struct xrt_cs_jump *c = cs_append(b, XRT_CS_OP_JUMP, sizeof(*c));

	if (c) {
		c->mode = mode;
		c->target = target;
		if (pred)
			c->pred = *pred;
	}
}

struct xrt_cs_operand cs_operand(uint32_t slot, uint32_t dtype, uint32_t flags,
				 uint64_t offset, uint32_t rank,
				 const int64_t *strides)
{
	struct xrt_cs_operand o;
	uint32_t i;

	memset(&o, 0, sizeof(o));
	o.slot = slot;
	o.dtype = (uint8_t)dtype;
	o.flags = (uint8_t)flags;
	o.offset = offset;
	for (i = 0; i < rank && i < XRT_CS_MAX_RANK; i++)
		o.strides[i] = strides[i];
	return o;
}

void cs_ewise(struct cs_builder *b, uint32_t rank, const uint64_t *dims,
	      const struct xrt_cs_operand *ops, uint32_t num_ops,
	      const struct xrt_cs_ew_inst *insts, uint32_t num_insts,
	      uint32_t num_regs)
{
	size_t size = sizeof(struct xrt_cs_ewise) + num_ops * sizeof(*ops) +
		      (size_t)num_insts * sizeof(*insts);
	struct xrt_cs_ewise *c = cs_append(b, XRT_CS_OP_EWISE, size);
	uint32_t i;

	if (!c)
		return;
	c->rank = (uint8_t)rank;
	c->num_operands = (uint8_t)num_ops;
	c->num_regs = (uint8_t)num_regs;
	c->num_insts = num_insts;
	for (i = 0; i < rank && i < XRT_CS_MAX_RANK; i++)
		c->dims[i] = dims[i];
	memcpy(c + 1, ops, num_ops * sizeof(*ops));
	memcpy((uint8_t *)(c + 1) + num_ops * sizeof(*ops), insts,
	       num_insts * sizeof(*insts));
}

void cs_reduce(struct cs_builder *b, uint32_t op, uint32_t rank,
	       const uint64_t *dims, uint32_t reduce_mask,
	       const struct xrt_cs_operand *ops, uint32_t num_ops,
	       const struct xrt_cs_ew_inst *insts, uint32_t num_insts,
	       uint32_t num_regs, uint32_t value_reg, const void *init,
	       size_t init_size)
{
	size_t size = sizeof(struct xrt_cs_reduce) + num_ops * sizeof(*ops) +
		      (size_t)num_insts * sizeof(*insts);
	struct xrt_cs_reduce *c = cs_append(b, XRT_CS_OP_REDUCE, size);
	uint32_t i;

	if (!c)
		return;
	c->op = (uint8_t)op;
	c->rank = (uint8_t)rank;
	c->num_operands = (uint8_t)num_ops;
	c->num_regs = (uint8_t)num_regs;
	c->reduce_mask = reduce_mask;
	c->num_insts = num_insts;
	c->value_reg = (uint8_t)value_reg;
	for (i = 0; i < rank && i < XRT_CS_MAX_RANK; i++)
		c->dims[i] = dims[i];
	if (init)
		memcpy(c->init, init, init_size < 16 ? init_size : 16);
	memcpy(c + 1, ops, num_ops * sizeof(*ops));
	memcpy((uint8_t *)(c + 1) + num_ops * sizeof(*ops), insts,
	       num_insts * sizeof(*insts));
}

void cs_gather(struct cs_builder *b, const struct xrt_cs_view *operand,
	       const struct xrt_cs_view *indices, const struct xrt_cs_view *out,
	       uint32_t k, const uint8_t *index_map)
{
	struct xrt_cs_gather *c = cs_append(b, XRT_CS_OP_GATHER, sizeof(*c));

	if (!c)
		return;
	c->num_index_dims = k;
	c->operand = *operand;
	c->indices = *indices;
	c->out = *out;
	memcpy(c->index_map, index_map, k < XRT_CS_MAX_RANK ? k : XRT_CS_MAX_RANK);
}

void cs_scatter(struct cs_builder *b, uint32_t combiner, uint32_t mode,
		const struct xrt_cs_view *operand,
		const struct xrt_cs_view *indices,
		const struct xrt_cs_view *updates, uint32_t k,
		const uint8_t *index_map)
{
	struct xrt_cs_scatter *c = cs_append(b, XRT_CS_OP_SCATTER, sizeof(*c));

	if (!c)
		return;
	c->num_index_dims = k;
	c->combiner = (uint8_t)combiner;
	c->mode = (uint8_t)mode;
	c->operand = *operand;
	c->indices = *indices;
	c->updates = *updates;
	memcpy(c->index_map, index_map, k < XRT_CS_MAX_RANK ? k : XRT_CS_MAX_RANK);
}

void cs_dynamic_slice(struct cs_builder *b, int update,
		      const struct xrt_cs_view *operand,
		      const struct xrt_cs_view *slice,
		      const struct xrt_cs_scalar *starts)
{
	struct xrt_cs_dynamic_slice *c = cs_append(b, update ?
		XRT_CS_OP_DYNAMIC_UPDATE_SLICE : XRT_CS_OP_DYNAMIC_SLICE, sizeof(*c));
	uint32_t i;

	if (!c)
		return;
	c->operand = *operand;
	c->slice = *slice;
	for (i = 0; i < operand->rank && i < XRT_CS_MAX_RANK; i++)
		c->starts[i] = starts[i];
}

void cs_sort(struct cs_builder *b, uint32_t flags, uint32_t rank,
	     const uint64_t *dims, uint32_t dim,
	     const struct xrt_cs_operand *ops, uint32_t num_ops,
	     uint32_t num_keys)
{
	struct xrt_cs_sort *c = cs_append(b, XRT_CS_OP_SORT, sizeof(*c));
	uint32_t i;

	if (!c)
		return;
	c->cmd.flags = (uint16_t)flags;
	c->rank = (uint8_t)rank;
	c->num_operands = (uint8_t)num_ops;
	c->num_keys = (uint8_t)num_keys;
	c->dim = (uint8_t)dim;
	for (i = 0; i < rank && i < XRT_CS_MAX_RANK; i++)
		c->dims[i] = dims[i];
	for (i = 0; i < num_ops && i < 8; i++)
		c->operands[i] = ops[i];
}

void cs_call(struct cs_builder *b, uint32_t target, const struct xrt_cs_view *views,
	     uint32_t num_args, uint32_t num_results)
{
	size_t n = (size_t)num_args + num_results;
	struct xrt_cs_call *c = cs_append(b, XRT_CS_OP_CALL, sizeof(*c) + n * sizeof(*views));

	if (!c)
		return;
	c->target = target;
	c->num_args = (uint16_t)num_args;
	c->num_results = (uint16_t)num_results;
	if (n)
		memcpy(c + 1, views, n * sizeof(*views));
}

void cs_collective(struct cs_builder *b, uint32_t kind, uint32_t op, uint32_t dim,
		   uint32_t group, const struct xrt_cs_view *views, uint32_t n)
{
	struct xrt_cs_collective *c = cs_append(b, XRT_CS_OP_COLLECTIVE,
						sizeof(*c) + 2 * (size_t)n * sizeof(*views));

	if (!c)
		return;
	c->kind = (uint8_t)kind;
	c->op = (uint8_t)op;
	c->dim = (uint8_t)dim;
	c->group = group;
	c->num_in = c->num_out = (uint16_t)n;
	if (n)
		memcpy(c + 1, views, 2 * (size_t)n * sizeof(*views));
}

void cs_scan(struct cs_builder *b, uint32_t op, uint32_t dim, const struct xrt_cs_view *in,
	     const struct xrt_cs_view *out, const void *init, size_t size)
{
	struct xrt_cs_scan *c = cs_append(b, XRT_CS_OP_SCAN, sizeof(*c));

	if (!c)
		return;
	c->op = (uint8_t)op;
	c->dim = (uint8_t)dim;
	memcpy(c->init, init, size < sizeof(c->init) ? size : sizeof(c->init));
	c->in = *in;
	c->out = *out;
}

static struct xrt_cs_rng *rng(struct cs_builder *b, size_t size, uint32_t distribution,
			      uint64_t stream, const struct xrt_cs_view *dst, double p0, double p1)
{
	struct xrt_cs_rng *c = cs_append(b, XRT_CS_OP_RNG, size);

	if (!c)
		return NULL;
	c->distribution = distribution;
	c->stream = stream;
	c->dst = *dst;
	if (distribution != XRT_CS_RNG_BITS) {
		memcpy(&c->params[0], &p0, 8);
		memcpy(&c->params[1], &p1, 8);
	}
	return c;
}

void cs_rng(struct cs_builder *b, uint32_t distribution, uint64_t stream,
	    const struct xrt_cs_view *dst, double p0, double p1)
{
	rng(b, sizeof(struct xrt_cs_rng), distribution, stream, dst, p0, p1);
}

void cs_rng_at(struct cs_builder *b, uint32_t distribution, const struct xrt_cs_scalar *stream,
	       const struct xrt_cs_view *dst, double p0, double p1)
{
	struct xrt_cs_rng *c = rng(b, sizeof(*c) + sizeof(*stream), distribution, 0, dst, p0, p1);

	if (!c)
		return;
	c->cmd.flags = XRT_CS_RNG_STREAM_AT;
	memcpy(c + 1, stream, sizeof(*stream));
}

void cs_dot(struct cs_builder *b, uint32_t flags, uint64_t batch, uint64_t m,
	    uint64_t n, uint64_t k, const struct xrt_cs_matrix *lhs,
	    const struct xrt_cs_matrix *rhs, const struct xrt_cs_matrix *out)
{
	struct xrt_cs_dot *c = cs_append(b, XRT_CS_OP_DOT, sizeof(*c));

	if (!c)
		return;
	c->cmd.flags = (uint16_t)flags;
	c->batch = batch;
	c->m = m;
	c->n = n;
	c->k = k;
	c->lhs = *lhs;
	c->rhs = *rhs;
	c->out = *out;
}

xrt_status *cs_finish(struct cs_builder *b, void **prog, size_t *size)
{
	struct xrt_cs_header h;
	size_t slots = (size_t)b->num_slots * sizeof(*b->slots);
	size_t total = sizeof(h) + slots + b->len;
	xrt_status *st = b->err;
	uint8_t *p;

	b->err = NULL;
	if (!st) {
		p = xrt_mem_alloc_aligned(b->alloc, total, 64);
		if (!p) {
			st = xrt_status_oom(b->alloc, "a command stream");
		} else {
			memset(&h, 0, sizeof(h));
			h.magic = XRT_CS_MAGIC;
			h.version = XRT_CS_VERSION;
			h.header_size = sizeof(h);
			h.size = total;
			h.num_slots = b->num_slots;
			h.num_commands = b->num_commands;
			h.slots_offset = sizeof(h);
			h.commands_offset = sizeof(h) + slots;
			memcpy(p, &h, sizeof(h));
			if (slots)
				memcpy(p + sizeof(h), b->slots, slots);
			if (b->len)
				memcpy(p + sizeof(h) + slots, b->cmds, b->len);
			*prog = p;
			*size = total;
		}
	}
	cs_builder_release(b);
	return st;
}
