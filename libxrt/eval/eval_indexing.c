// SPDX-License-Identifier: MIT
/*
 * Opcodes that index with runtime values: dynamic-slice and
 * dynamic-update-slice clamp their starts so the slice fits; gather
 * clamps each slice's start the same way; scatter skips an update whose
 * window does not fit (what XLA's compiled backends do), and applies
 * the update computation element by element.
 */
#include <string.h>

#include "eval/eval.h"

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static struct ev_val *dynamic_slice(struct ev *ev, struct ev_val *const *ops, bool update)
{
	const struct ev_val *a = ops[0], *u = update ? ops[1] : NULL;
	struct ev_val *r = update ? ev_copy(ev, a) : ev_new(ev, &ev->in->shape);
	const struct ev_val *box = update ? u : r;
	int64_t start[XRT_MAX_RANK], idx[XRT_MAX_RANK] = { 0 }, k;
	uint32_t d, rank = a->shape.rank, first = update ? 2 : 1;

	if (!r)
		return NULL;
	for (d = 0; d < rank; d++) {
		const struct ev_val *s = ops[first + d];

		start[d] = clamp64(ev_index_value(s->shape.dtype, s->e[0]), 0,
				   a->shape.dims[d] - box->shape.dims[d]);
	}
	for (k = 0; k < box->n; k++, ev_next(rank, box->shape.dims, idx)) {
		int64_t pos[XRT_MAX_RANK];

		for (d = 0; d < rank; d++)
			pos[d] = start[d] + idx[d];
		if (update)
			r->e[ev_offset(rank, a->shape.dims, pos)] = u->e[k];
		else
			r->e[k] = a->e[ev_offset(rank, a->shape.dims, pos)];
	}
	return r;
}

/*
 * The start index vector for batch position @g (one entry per indices
 * dimension but @ivd): @count values along dimension @ivd of @ix, or
 * the one element there when @ivd is the rank (an implied last dim).
 */
static void start_vector(const struct ev_val *ix, const int64_t *g, int64_t ivd, uint32_t count,
			 int64_t *out)
{
	int64_t pos[XRT_MAX_RANK + 1];
	uint32_t i, d, j = 0;

	for (d = 0; d < ix->shape.rank; d++)
		pos[d] = (int64_t)d == ivd ? 0 : g[j++];
	for (i = 0; i < count; i++) {
		if (ivd < ix->shape.rank)
			pos[ivd] = i;
		out[i] = ev_index_value(ix->shape.dtype,
					ix->e[ev_offset(ix->shape.rank, ix->shape.dims, pos)]);
	}
}

static struct ev_val *gather(struct ev *ev, struct ev_val *const *ops)
{
	const struct ev_val *a = ops[0], *ix = ops[1];
	struct ev_val *r = ev_new(ev, &ev->in->shape);
	uint32_t noff, ncol, nmap, nsz, d, j;
	const int64_t *off = ev_ints(ev, IR_ATTR_OFFSET_DIMS, &noff);
	const int64_t *col = ev_ints(ev, IR_ATTR_COLLAPSED_SLICE_DIMS, &ncol);
	const int64_t *map = ev_ints(ev, IR_ATTR_START_INDEX_MAP, &nmap);
	const int64_t *sz = ev_ints(ev, IR_ATTR_SLICE_SIZES, &nsz);
	int64_t ivd = ev_int(ev, IR_ATTR_INDEX_VECTOR_DIM, 0), out[XRT_MAX_RANK] = { 0 }, k;

	for (k = 0; r && k < r->n; k++, ev_next(r->shape.rank, r->shape.dims, out)) {
		int64_t g[XRT_MAX_RANK], s[XRT_MAX_RANK], pos[XRT_MAX_RANK] = { 0 };
		uint32_t nb = 0, no = 0;

		for (d = 0; d < r->shape.rank; d++) {
			if (!ev_listed(off, noff, d))
				g[nb++] = out[d];
		}
		start_vector(ix, g, ivd, nmap, s);
		for (j = 0; j < nmap; j++)
			pos[map[j]] = s[j];
		for (d = 0; d < a->shape.rank; d++) {
			pos[d] = clamp64(pos[d], 0, a->shape.dims[d] - sz[d]);
			if (!ev_listed(col, ncol, d))
				pos[d] += out[off[no++]];
		}
		r->e[k] = a->e[ev_offset(a->shape.rank, a->shape.dims, pos)];
	}
	return r;
}

struct scatter_dims {
	const int64_t *win, *ins, *map;
	uint32_t nwin, nins, nmap;
	int64_t ivd;
};

/* The operand index of update element @u, or false if its window does not fit. */
static bool scatter_target(const struct scatter_dims *sd, const struct ev_val *a,
			   const struct ev_val *ix, const struct ev_val *up, const int64_t *u,
			   int64_t *pos)
{
	int64_t g[XRT_MAX_RANK], s[XRT_MAX_RANK], size;
	uint32_t d, nb = 0, nw = 0;

	for (d = 0; d < up->shape.rank; d++) {
		if (!ev_listed(sd->win, sd->nwin, d))
			g[nb++] = u[d];
	}
	start_vector(ix, g, sd->ivd, sd->nmap, s);
	memset(pos, 0, XRT_MAX_RANK * sizeof(*pos));
	for (d = 0; d < sd->nmap; d++)
		pos[sd->map[d]] = s[d];
	for (d = 0; d < a->shape.rank; d++) {
		bool inserted = ev_listed(sd->ins, sd->nins, d);

		size = inserted ? 1 : up->shape.dims[sd->win[nw]];
		if (pos[d] < 0 || pos[d] > a->shape.dims[d] - size)
			return false;
		if (!inserted)
			pos[d] += u[sd->win[nw++]];
	}
	return true;
}

static struct ev_val *scatter(struct ev *ev, struct ev_val *const *ops)
{
	uint32_t n = (ev->in->num_operands - 1) / 2, i;
	const struct ev_val *ix = ops[n], *const *ups = (const struct ev_val *const *)ops + n + 1;
	const struct ir_comp *f = ev_comp(ev, IR_ATTR_TO_APPLY, 0);
	struct scatter_dims sd;
	enum xrt_dtype types[2 * XRT_MAX_RANK];
	struct ev_scalar args[2 * XRT_MAX_RANK], res[XRT_MAX_RANK];
	int64_t u[XRT_MAX_RANK] = { 0 }, pos[XRT_MAX_RANK], k, off;
	struct ev_val *r = ev_new(ev, &ev->in->shape), *outs[XRT_MAX_RANK];

	sd.win = ev_ints(ev, IR_ATTR_UPDATE_WINDOW_DIMS, &sd.nwin);
	sd.ins = ev_ints(ev, IR_ATTR_INSERTED_WINDOW_DIMS, &sd.nins);
	sd.map = ev_ints(ev, IR_ATTR_SCATTER_DIMS_TO_OPERAND_DIMS, &sd.nmap);
	sd.ivd = ev_int(ev, IR_ATTR_INDEX_VECTOR_DIM, 0);
	if (!r)
		return NULL;
	for (i = 0; i < n; i++) {
		outs[i] = n == 1 ? r : r->elems[i];
		memcpy(outs[i]->e, ops[i]->e, (size_t)ops[i]->n * sizeof(*ops[i]->e));
		types[i] = types[n + i] = ops[i]->shape.dtype;
	}
	for (k = 0; k < ups[0]->n; k++, ev_next(ups[0]->shape.rank, ups[0]->shape.dims, u)) {
		if (!scatter_target(&sd, ops[0], ix, ups[0], u, pos))
			continue;
		off = ev_offset(ops[0]->shape.rank, ops[0]->shape.dims, pos);
		for (i = 0; i < n; i++) {
			args[i] = outs[i]->e[off];
			args[n + i] = ups[i]->e[k];
		}
		if (!ev_call_scalars(ev, f, types, args, 2 * n, res, n)) {
			ev_free(ev, r);
			return NULL;
		}
		for (i = 0; i < n; i++)
			outs[i]->e[off] = res[i];
	}
	return r;
}

struct ev_val *ev_indexing(struct ev *ev, struct ev_val *const *ops)
{
	switch (ev->in->op) {
	case XRT_OP_DYNAMIC_SLICE:
		return dynamic_slice(ev, ops, false);
	case XRT_OP_DYNAMIC_UPDATE_SLICE:
		return dynamic_slice(ev, ops, true);
	case XRT_OP_GATHER:
		return gather(ev, ops);
	default:
		return scatter(ev, ops);
	}
}
