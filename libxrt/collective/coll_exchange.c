// SPDX-License-Identifier: MIT
/*
 * What a member writes once its group is whole, reading the others'
 * arrays in place (member j is the one at place j of the group):
 *
 * - all-reduce: the member folds its share of the elements (share j of
 *   every array: elements [n j / size, n (j + 1) / size)) from every
 *   member's input, left to right in the group's order, a chunk at a
 *   time in a buffer that stays in cache, and stores each folded chunk
 *   into every member's output.  Each element of each input is read
 *   once and each element of each output written once, in all: the
 *   least memory traffic there is, which bounds a large all-reduce.
 * - the others: gathers, scatters and exchanges are copies
 *   of blocks (a block: the elements under one index of the dimensions
 *   before dim, for one member); reduce-scatter folds its block.
 */
#include <string.h>

#include "collective/collective.h"
#include "coll_internal.h"
#include "engine/scalar.h"

uint64_t xcoll_count(const struct xdev_coll_array *a, uint32_t from, uint32_t to)
{
	uint64_t n = 1;
	uint32_t d;

	for (d = from; d < to; d++)
		n *= a->dims[d];
	return n;
}

static uint32_t esize(const struct xdev_coll_array *a)
{
	return xs_dtype_size(a->dtype);
}

static const struct xdev_coll_array *in_of(const struct xcoll_meeting *mt, uint32_t place,
					   uint32_t k)
{
	return &mt->ops[place]->in[k];
}

#define CHUNK_BYTES 8192	/* a folded chunk, kept in the L1 cache */

/* All-reduce: share op->me of each array folded, chunk by chunk, into every member's output. */
static void all_reduce(const struct xcoll_meeting *mt, const struct xdev_collective *op)
{
	uint64_t buf[CHUNK_BYTES / 8];
	uint32_t k, m;

	for (k = 0; k < op->cmd->num_in; k++) {
		const struct xdev_coll_array *out = &op->out[k];
		uint64_t n = xcoll_count(out, 0, out->rank), es = esize(out), step = CHUNK_BYTES / es;
		uint64_t lo = n * op->me / op->size, hi = n * (op->me + 1) / op->size, at, len;

		for (at = lo; at < hi; at += len) {
			len = hi - at < step ? hi - at : step;
			memcpy(buf, in_of(mt, 0, k)->data + at * es, len * es);
			for (m = 1; m < op->size; m++)
				xcoll_fold(buf, in_of(mt, m, k)->data + at * es, len, out->dtype,
					   op->cmd->op);
			for (m = 0; m < op->size; m++)
				memcpy(mt->ops[m]->out[k].data + at * es, buf, len * es);
		}
	}
}

/*
 * Block (o, j) of @out (o an index of the dimensions before dim, j a
 * member) gets member j's block (o, @take) of input @k, @bb bytes; with
 * @take < 0 its block o (all-gather).
 */
static void join(const struct xcoll_meeting *mt, const struct xdev_collective *op, uint32_t k,
		 int64_t take)
{
	const struct xdev_coll_array *out = &op->out[k];
	uint32_t dim = op->cmd->dim, j;
	uint64_t outer = xcoll_count(out, 0, dim), o;
	uint64_t bb = xcoll_count(out, dim, out->rank) * esize(out) / op->size;

	for (o = 0; o < outer; o++)
		for (j = 0; j < op->size; j++) {
			uint64_t from = take < 0 ? o : o * op->size + (uint64_t)take;

			memcpy(out->data + (o * op->size + j) * bb,
			       in_of(mt, j, k)->data + from * bb, bb);
		}
}

/* Reduce-scatter: block (o, me) of every member's input @k, folded. */
static void reduce_scatter(const struct xcoll_meeting *mt, const struct xdev_collective *op,
			   uint32_t k)
{
	const struct xdev_coll_array *out = &op->out[k];
	uint32_t dim = op->cmd->dim, m;
	uint64_t outer = xcoll_count(out, 0, dim), n = xcoll_count(out, dim, out->rank), o;
	uint64_t bb = n * esize(out);

	for (o = 0; o < outer; o++) {
		uint8_t *dst = out->data + o * bb;
		uint64_t from = (o * op->size + op->me) * bb;

		memcpy(dst, in_of(mt, 0, k)->data + from, bb);
		for (m = 1; m < op->size; m++)
			xcoll_fold(dst, in_of(mt, m, k)->data + from, n, out->dtype, op->cmd->op);
	}
}

static void copy_from(const struct xdev_coll_array *dst, const struct xdev_coll_array *src)
{
	memcpy(dst->data, src->data, xcoll_count(dst, 0, dst->rank) * esize(dst));
}

void xcoll_exchange(const struct xcoll_meeting *mt, const struct xdev_collective *op)
{
	uint32_t k, n = op->cmd->num_in;

	for (k = 0; k < n; k++) {
		switch (op->cmd->kind) {
		case XRT_CS_COLL_ALL_REDUCE:
			if (k == 0)
				all_reduce(mt, op);
			break;
		case XRT_CS_COLL_ALL_GATHER:
			join(mt, op, k, -1);
			break;
		case XRT_CS_COLL_REDUCE_SCATTER:
			reduce_scatter(mt, op, k);
			break;
		case XRT_CS_COLL_ALL_TO_ALL:
			join(mt, op, k, op->me);
			break;
		case XRT_CS_COLL_ALL_TO_ALL_TUPLE:	/* out[k] = member k's in[me] */
			copy_from(&op->out[k], in_of(mt, k, op->me));
			break;
		case XRT_CS_COLL_PERMUTE:
			if (op->source < 0)
				memset(op->out[k].data, 0, xcoll_count(&op->out[k], 0, op->out[k].rank) *
				       esize(&op->out[k]));
			else
				copy_from(&op->out[k], in_of(mt, (uint32_t)op->source, k));
			break;
		default:	/* BROADCAST: the first member's */
			copy_from(&op->out[k], in_of(mt, 0, k));
		}
	}
}
