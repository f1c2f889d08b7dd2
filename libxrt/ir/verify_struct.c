// SPDX-License-Identifier: MIT
/*
 * Opcodes that move data: shapes from dimensions, slices, paddings and
 * index maps; plus parameters, constants, tuples, random numbers and
 * custom calls.
 */
#include <math.h>
#include <string.h>

#include "core/ffi.h"
#include "core/mem.h"
#include "verify.h"

static int check_tuple(struct vfy *v)
{
	uint32_t i, n = v->in->num_operands;
	struct xrt_shape *elems;
	int ret;

	elems = xrt_mem_calloc(v->m->alloc, n ? n : 1, sizeof(*elems));
	if (!elems) {
		v->err = xrt_status_oom(v->m->alloc, "a tuple shape");
		return -1;
	}
	for (i = 0; i < n; i++)
		elems[i] = *vfy_opnd(v, i);	/* shallow: the tuple copies deeply */
	ret = vfy_result_tuple(v, elems, n);
	xrt_mem_free(v->m->alloc, elems);
	return ret;
}

static int check_gte(struct vfy *v)
{
	const struct xrt_shape *t = vfy_opnd(v, 0);
	int64_t i;

	if (vfy_operands(v, 1, 1) || vfy_int(v, IR_ATTR_INDEX, &i))
		return -1;
	if (!xrt_shape_is_tuple(t))
		return vfy_fail(v, "operand 0 is not a tuple");
	if (i < 0 || i >= t->tuple_count)
		return vfy_fail(v, "index %lld outside a tuple of %u", (long long)i,
				t->tuple_count);
	return vfy_result_is(v, &t->tuple[i]);
}

static int check_reshape(struct vfy *v, bool bitcast)
{
	const struct xrt_shape *a = vfy_opnd(v, 0), *r = &v->in->shape;

	if (vfy_operands(v, 1, 1) || vfy_array(v, 0))
		return -1;
	if (xrt_shape_is_tuple(r))
		return vfy_fail(v, "result is a tuple");
	if (bitcast ? xrt_shape_byte_size(r) != xrt_shape_byte_size(a) :
		      (r->dtype != a->dtype ||
		       xrt_shape_element_count(r) != xrt_shape_element_count(a)))
		return vfy_fail(v, "%s changes the %s", bitcast ? "bitcast" : "reshape",
				bitcast ? "byte size" : "element type or count");
	return 0;
}

static int check_broadcast(struct vfy *v)
{
	const struct xrt_shape *a = vfy_opnd(v, 0), *r = &v->in->shape;
	const int64_t *d;
	uint32_t n, i;

	if (vfy_operands(v, 1, 1) || vfy_array(v, 0) ||
	    vfy_ints(v, IR_ATTR_DIMENSIONS, &d, &n))
		return -1;
	if (xrt_shape_is_tuple(r) || r->dtype != a->dtype)
		return vfy_fail(v, "result is not an array of the operand's type");
	if (n != a->rank)
		return vfy_fail(v, "%u dimensions for an operand of rank %u", n, a->rank);
	if (vfy_dims_in_range(v, "dimensions", d, n, r->rank))
		return -1;
	for (i = 0; i < n; i++) {
		if (r->dims[d[i]] != a->dims[i])
			return vfy_fail(v, "operand dimension %u (%lld) maps to result dimension %lld (%lld)",
					i, (long long)a->dims[i], (long long)d[i],
					(long long)r->dims[d[i]]);
	}
	return 0;
}

static int check_transpose(struct vfy *v)
{
	const struct xrt_shape *a = vfy_opnd(v, 0);
	int64_t dims[XRT_MAX_RANK];
	const int64_t *p;
	uint32_t n, i;

	if (vfy_operands(v, 1, 1) || vfy_array(v, 0) ||
	    vfy_ints(v, IR_ATTR_DIMENSIONS, &p, &n))
		return -1;
	if (n != a->rank)
		return vfy_fail(v, "%u dimensions for rank %u", n, a->rank);
	if (vfy_dims_in_range(v, "dimensions", p, n, a->rank))
		return -1;
	for (i = 0; i < n; i++)
		dims[i] = a->dims[p[i]];
	return vfy_result(v, a->dtype, a->rank, dims);
}

static int check_slice(struct vfy *v)
{
	const struct ir_attr *s = ir_instr_attr(v->in, IR_ATTR_SLICE);
	const struct xrt_shape *a = vfy_opnd(v, 0);
	int64_t dims[XRT_MAX_RANK];
	uint32_t i;

	if (vfy_operands(v, 1, 1) || vfy_array(v, 0))
		return -1;
	if (!s || s->n != a->rank)
		return vfy_fail(v, "slice needs %u ranges", a->rank);
	for (i = 0; i < s->n; i++) {
		int64_t lo = s->ints[3 * i], hi = s->ints[3 * i + 1], st = s->ints[3 * i + 2];

		if (lo < 0 || hi < lo || hi > a->dims[i] || st < 1)
			return vfy_fail(v, "slice range %u [%lld:%lld:%lld] does not fit dimension %lld",
					i, (long long)lo, (long long)hi, (long long)st,
					(long long)a->dims[i]);
		dims[i] = hi == lo ? 0 : (hi - lo - 1) / st + 1;	/* no overflow for huge strides */
	}
	return vfy_result(v, a->dtype, a->rank, dims);
}

/* Operands from @first on: one integer scalar per dimension of @rank. */
static int check_indices(struct vfy *v, uint32_t first, uint32_t rank)
{
	uint32_t i;

	if (vfy_operands(v, first + rank, first + rank))
		return -1;
	for (i = first; i < first + rank; i++) {
		if (vfy_scalar(v, i))
			return -1;
		if (!xrt_dtype_is_integer(vfy_opnd(v, i)->dtype))
			return vfy_fail(v, "start index operand %u is not an integer", i);
	}
	return 0;
}

static int check_dynamic_slice(struct vfy *v)
{
	const struct xrt_shape *a = vfy_opnd(v, 0);
	const int64_t *s;
	uint32_t n, i;

	if (vfy_array(v, 0) || check_indices(v, 1, a->rank) ||
	    vfy_ints(v, IR_ATTR_DYNAMIC_SLICE_SIZES, &s, &n))
		return -1;
	if (n != a->rank)
		return vfy_fail(v, "%u slice sizes for rank %u", n, a->rank);
	for (i = 0; i < n; i++) {
		if (s[i] < 0 || s[i] > a->dims[i])
			return vfy_fail(v, "slice size %lld outside dimension %u (%lld)",
					(long long)s[i], i, (long long)a->dims[i]);
	}
	return vfy_result(v, a->dtype, n, s);
}

static int check_dus(struct vfy *v)
{
	const struct xrt_shape *a = vfy_opnd(v, 0), *u = vfy_opnd(v, 1);
	uint32_t i;

	if (vfy_operands(v, 2, ~0u) || vfy_array(v, 0) || vfy_array(v, 1) ||
	    check_indices(v, 2, a->rank))
		return -1;
	if (u->rank != a->rank || u->dtype != a->dtype)
		return vfy_fail(v, "update's rank or type differs from the operand's");
	for (i = 0; i < a->rank; i++) {
		if (u->dims[i] > a->dims[i])
			return vfy_fail(v, "update dimension %u exceeds the operand's", i);
	}
	return vfy_result_is(v, a);
}

static int check_concatenate(struct vfy *v)
{
	const struct xrt_shape *a = vfy_opnd(v, 0);
	int64_t dims[XRT_MAX_RANK];
	const int64_t *d;
	uint32_t n, i, k;

	if (vfy_operands(v, 1, ~0u) || vfy_ints(v, IR_ATTR_DIMENSIONS, &d, &n))
		return -1;
	if (vfy_array(v, 0) || n != 1 || vfy_dims_in_range(v, "dimensions", d, 1, a->rank))
		return n != 1 ? vfy_fail(v, "concatenate takes one dimension") : -1;
	memcpy(dims, a->dims, sizeof(dims));
	for (i = 1; i < v->in->num_operands; i++) {
		const struct xrt_shape *b = vfy_opnd(v, i);

		if (vfy_array(v, i))
			return -1;
		if (b->rank != a->rank || b->dtype != a->dtype)
			return vfy_fail(v, "operand %u's rank or type differs", i);
		for (k = 0; k < a->rank; k++) {
			if (k != d[0] && b->dims[k] != a->dims[k])
				return vfy_fail(v, "operand %u dimension %u differs", i, k);
		}
		if (__builtin_add_overflow(dims[d[0]], b->dims[d[0]], &dims[d[0]]))
			return vfy_fail(v, "concatenated dimension overflows");
	}
	return vfy_result(v, a->dtype, a->rank, dims);
}

static int check_pad(struct vfy *v)
{
	const struct ir_attr *p = ir_instr_attr(v->in, IR_ATTR_PADDING);
	const struct xrt_shape *a = vfy_opnd(v, 0);
	int64_t dims[XRT_MAX_RANK];
	uint32_t i;

	if (vfy_operands(v, 2, 2) || vfy_array(v, 0) || vfy_scalar(v, 1))
		return -1;
	if (vfy_opnd(v, 1)->dtype != a->dtype)
		return vfy_fail(v, "padding value's type differs from the operand's");
	if (!p || p->n != a->rank)
		return vfy_fail(v, "padding needs %u dimensions", a->rank);
	for (i = 0; i < p->n; i++) {
		int64_t lo = p->ints[3 * i], hi = p->ints[3 * i + 1], in = p->ints[3 * i + 2];
		int64_t d = a->dims[i];

		if (in < 0)
			return vfy_fail(v, "negative interior padding in dimension %u", i);
		/* d + (d - 1) * in + lo + hi, each step checked */
		if (vfy_overflows(d ? d - 1 : 0, in, d, lo, &dims[i]) ||
		    __builtin_add_overflow(dims[i], hi, &dims[i]))
			return vfy_fail(v, "padding of dimension %u overflows", i);
		if (dims[i] < 0)
			return vfy_fail(v, "padding makes dimension %u negative", i);
	}
	return vfy_result(v, a->dtype, a->rank, dims);
}

static int check_gather(struct vfy *v)
{
	const struct xrt_shape *a = vfy_opnd(v, 0), *ix = vfy_opnd(v, 1);
	const int64_t *off, *col, *map, *sizes;
	uint32_t noff, ncol, nmap, nsz, i, k, b;
	int64_t ivd, dims[XRT_MAX_RANK];

	/* The HLO reader rewrites them away (hlo_batching.c); no other path does yet. */
	if (ir_instr_attr(v->in, IR_ATTR_OPERAND_BATCHING_DIMS) ||
	    ir_instr_attr(v->in, IR_ATTR_START_INDICES_BATCHING_DIMS))
		return vfy_fail(v, "batching dimensions are taken from HLO text only");
	if (vfy_operands(v, 2, 2) || vfy_array(v, 0) || vfy_array(v, 1) ||
	    vfy_ints(v, IR_ATTR_OFFSET_DIMS, &off, &noff) ||
	    vfy_ints(v, IR_ATTR_COLLAPSED_SLICE_DIMS, &col, &ncol) ||
	    vfy_ints(v, IR_ATTR_START_INDEX_MAP, &map, &nmap) ||
	    vfy_int(v, IR_ATTR_INDEX_VECTOR_DIM, &ivd) ||
	    vfy_ints(v, IR_ATTR_SLICE_SIZES, &sizes, &nsz))
		return -1;
	if (!xrt_dtype_is_integer(ix->dtype))
		return vfy_fail(v, "indices are %s, not integers", xrt_dtype_name(ix->dtype));
	if (ivd < 0 || ivd > ix->rank)
		return vfy_fail(v, "index_vector_dim %lld out of range", (long long)ivd);
	if (nsz != a->rank || vfy_dims_in_range(v, "collapsed_slice_dims", col, ncol, a->rank) ||
	    vfy_dims_in_range(v, "start_index_map", map, nmap, a->rank))
		return nsz != a->rank ? vfy_fail(v, "slice_sizes needs %u entries", a->rank) : -1;
	if ((ivd < ix->rank ? ix->dims[ivd] : 1) != nmap)
		return vfy_fail(v, "index vectors of %lld entries for a start_index_map of %u",
				(long long)(ivd < ix->rank ? ix->dims[ivd] : 1), nmap);
	for (i = 0; i < nsz; i++) {
		if (sizes[i] < 0 || sizes[i] > a->dims[i])
			return vfy_fail(v, "slice size %u out of range", i);
	}
	for (i = 0; i < ncol; i++) {
		if (sizes[col[i]] != 1)
			return vfy_fail(v, "collapsed dimension %lld has slice size %lld",
					(long long)col[i], (long long)sizes[col[i]]);
	}
	if (noff != a->rank - ncol ||
	    ix->rank - (ivd < ix->rank) + noff > XRT_MAX_RANK)
		return vfy_fail(v, "offset_dims needs %u entries", a->rank - ncol);
	/* Result: batch dims (indices less index_vector_dim) around offset dims. */
	{
		uint32_t rank = ix->rank - (ivd < ix->rank) + noff, bi = 0, oi = 0;

		if (vfy_dims_in_range(v, "offset_dims", off, noff, rank))
			return -1;
		for (k = 0; k < rank; k++) {
			bool is_off = false;

			for (i = 0; i < noff; i++)
				is_off = is_off || off[i] == k;
			if (is_off) {
				/* The oi-th slice dimension that is not collapsed. */
				for (b = 0, i = 0; b < a->rank; b++) {
					bool c = false;
					uint32_t j;

					for (j = 0; j < ncol; j++)
						c = c || col[j] == b;
					if (!c && i++ == oi)
						break;
				}
				dims[k] = sizes[b];
				oi++;
			} else {
				if (bi == ivd)
					bi++;
				dims[k] = ix->dims[bi++];
			}
		}
		return vfy_result(v, a->dtype, rank, dims);
	}
}

/* A scalar constant's value: as a double for floats, as 64 bits otherwise. */
static void scalar_value(const xrt_literal *lit, enum xrt_dtype t, double *f, uint64_t *u)
{
	const uint8_t *p = xrt_literal_data(lit);
	size_t n = xrt_dtype_size(t), k;
	unsigned int w = xrt_dtype_bits(t);	/* s4's value is a byte's low 4 bits */
	float x;

	*u = 0;
	for (k = 0; k < n; k++)		/* little-endian, as literals store it */
		*u |= (uint64_t)p[k] << (8 * k);
	if (w < 64)
		*u &= (1ull << w) - 1;
	if (xrt_dtype_is_signed(t) && w < 64 && (*u >> (w - 1)) & 1)
		*u |= ~0ull << w;
	*f = 0;
	if (xrt_dtype_is_small_float(t)) {
		*f = xrt_small_float_to_f64(t, p[0]);
	} else if (t == XRT_F64) {
		memcpy(f, p, 8);
	} else if (t == XRT_F32) {
		memcpy(&x, p, 4);
		*f = x;
	} else if (t == XRT_F16 || t == XRT_BF16) {
		*f = t == XRT_F16 ? xrt_f16_to_f32((uint16_t)*u) : xrt_bf16_to_f32((uint16_t)*u);
	}
}

/* The text of scalar literal @lit's value ("2" of "f32[] 2"). */
static const char *value_text(const xrt_literal *lit, char *buf, size_t size)
{
	const char *sp;

	xrt_literal_format(lit, buf, size);
	sp = strchr(buf, ' ');
	return sp ? sp + 1 : buf;
}

/*
 * XLA leaves rng undefined for an empty range or a negative sigma.  Bounds
 * that are constants are refused here, so that every device and the
 * evaluator refuse them alike; bounds computed at run time are defined by
 * the evaluator (an empty range gives low).
 */
static int check_rng_bounds(struct vfy *v, bool normal)
{
	const struct ir_instr *a = &v->c->instrs[v->in->operands[0]];
	const struct ir_instr *b = &v->c->instrs[v->in->operands[1]];
	enum xrt_dtype t = a->shape.dtype;
	char ta[64], tb[64];
	const char *why;
	uint64_t ua, ub;
	double fa, fb;

	if (a->op != XRT_OP_CONSTANT || b->op != XRT_OP_CONSTANT)
		return 0;
	scalar_value(a->literal, t, &fa, &ua);
	scalar_value(b->literal, t, &fb, &ub);
	if (!xrt_dtype_is_float(t))
		why = (xrt_dtype_is_signed(t) ? (int64_t)ua < (int64_t)ub : ua < ub) ? NULL :
		      "needs low < high";
	else if (!isfinite(fa) || !isfinite(fb))
		why = "needs finite bounds";
	else if (normal)
		why = fb >= 0 ? NULL : "needs sigma >= 0";
	else
		why = fa < fb ? NULL : "needs low < high";
	if (!why)
		return 0;
	return vfy_fail(v, "%s %s: %s %s, %s %s", normal ? "rng_normal" : "rng_uniform", why,
			normal ? "mu" : "low", value_text(a->literal, ta, sizeof(ta)),
			normal ? "sigma" : "high", value_text(b->literal, tb, sizeof(tb)));
}

static int check_rng(struct vfy *v)
{
	const struct ir_attr *d = ir_instr_attr(v->in, IR_ATTR_DISTRIBUTION);
	const struct xrt_shape *a = vfy_opnd(v, 0), *r = &v->in->shape;

	if (vfy_operands(v, 2, 2) || vfy_scalar(v, 0) || vfy_scalar(v, 1))
		return -1;
	if (!d || (strcmp(d->str, "rng_uniform") && strcmp(d->str, "rng_normal")))
		return vfy_fail(v, "distribution must be rng_uniform or rng_normal");
	if (vfy_opnd(v, 1)->dtype != a->dtype || xrt_shape_is_tuple(r) ||
	    r->dtype != a->dtype)
		return vfy_fail(v, "operands and result differ in type");
	if (!strcmp(d->str, "rng_normal") && !xrt_dtype_is_float(a->dtype))
		return vfy_fail(v, "rng_normal needs floats");
	return check_rng_bounds(v, !strcmp(d->str, "rng_normal"));
}

static int check_rbg(struct vfy *v)
{
	const struct ir_attr *alg = ir_instr_attr(v->in, IR_ATTR_ALGORITHM);
	const struct xrt_shape *s = vfy_opnd(v, 0), *r = &v->in->shape;

	if (vfy_operands(v, 1, 1) || vfy_array(v, 0))
		return -1;
	if (alg && strcmp(alg->str, "rng_default") && strcmp(alg->str, "rng_philox") &&
	    strcmp(alg->str, "rng_three_fry"))
		return vfy_fail(v, "algorithm '%s', expected rng_default, rng_philox or rng_three_fry",
				alg->str);
	if (s->dtype != XRT_U64 || s->rank != 1)
		return vfy_fail(v, "state must be u64[n]");
	if (!xrt_shape_is_tuple(r) || r->tuple_count != 2 ||
	    !xrt_shape_compatible(&r->tuple[0], s) || xrt_shape_is_tuple(&r->tuple[1]) ||
	    !xrt_dtype_is_integer(r->tuple[1].dtype))
		return vfy_fail(v, "shape must be (state, unsigned bits)");
	return 0;
}

/*
 * operand_layout_constraints: for each operand, an array, its rank and a
 * permutation of its dimensions.
 */
static int check_layouts(struct vfy *v)
{
	const struct ir_attr *a = ir_instr_attr(v->in, IR_ATTR_OPERAND_LAYOUT_CONSTRAINTS);
	uint32_t i = 0, k, d, seen;

	if (a && !a->n)	/* HLO text has no empty list: it would not read back */
		return vfy_fail(v, "operand_layout_constraints: an empty list");
	for (k = 0; a && k < v->in->num_operands; k++) {
		const struct xrt_shape *o = vfy_opnd(v, k);

		if (xrt_shape_is_tuple(o))
			return vfy_fail(v, "operand %u is a tuple: layout constraints are for arrays",
					k);
		if (i >= a->n || a->ints[i] != o->rank || a->n - i - 1 < o->rank)
			return vfy_fail(v, "operand_layout_constraints: no layout of rank %u for "
					"operand %u", o->rank, k);
		for (d = 0, seen = 0, i++; d < o->rank; d++, i++) {
			if (a->ints[i] < 0 || a->ints[i] >= o->rank || seen & (1u << a->ints[i]))
				return vfy_fail(v, "operand_layout_constraints: operand %u's layout "
						"is not a permutation of its dimensions", k);
			seen |= 1u << a->ints[i];
		}
	}
	if (a && i != a->n)
		return vfy_fail(v, "operand_layout_constraints: %u values for %u operands", a->n,
				v->in->num_operands);
	return 0;
}

/*
 * Any operands and result go to a handler, which running looks up by
 * target (XLA reads an empty one too: no handler has it); the API
 * version must be one of XLA's, and a typed FFI call's backend_config
 * its attribute dictionary.
 */
static int check_custom_call(struct vfy *v)
{
	const struct ir_attr *t = ir_instr_attr(v->in, IR_ATTR_CUSTOM_CALL_TARGET);
	const struct ir_attr *ver = ir_instr_attr(v->in, IR_ATTR_API_VERSION);
	const struct ir_attr *cfg = ir_instr_attr(v->in, IR_ATTR_BACKEND_CONFIG);
	const struct xrt_allocator *a = v->m->alloc;
	struct xrt_ffi_attrs *d;
	xrt_status *st;

	static const char *const read_as_ops[] = { "TopK", "SliceToDynamic", "PadToStatic" };
	size_t k;

	if (!t)
		return vfy_fail(v, "attribute 'custom_call_target' missing");
	for (k = 0; k < sizeof(read_as_ops) / sizeof(read_as_ops[0]); k++)
		if (!strcmp(t->str, read_as_ops[k]))	/* else its text would not read back */
			return vfy_fail(v, "custom-call target '%s' is XLA's, which HLO's reader "
					"reads as its own operation: the IR holds no such call",
					t->str);
	if (ver && ir_api_version(ver->str) < 0)
		return vfy_fail(v, "api_version %s is not one of XLA's (API_VERSION_ORIGINAL, "
				"_STATUS_RETURNING, _STATUS_RETURNING_UNIFIED, _TYPED_FFI)",
				ver->str);
	if (check_layouts(v))
		return -1;
	if (!ir_is_typed_ffi(v->in) || !cfg)
		return 0;
	st = xffi_attrs_parse(a, cfg->str, strlen(cfg->str), &d);
	xffi_attrs_free(a, d);
	if (!st)
		return 0;
	if (xrt_status_code(st) == XRT_RESOURCE_EXHAUSTED) {
		v->err = st;	/* a shortage, not the module's fault */
		return -1;
	}
	vfy_fail(v, "backend_config of an API_VERSION_TYPED_FFI call: %s",
		 xrt_status_message(st));
	xrt_status_free(st);
	return -1;
}

int vfy_structural(struct vfy *v)
{
	const struct xrt_shape *r = &v->in->shape;
	int64_t d;

	switch (v->in->op) {
	case XRT_OP_PARAMETER:
	case XRT_OP_CONSTANT:
		return vfy_operands(v, 0, 0);
	case XRT_OP_CUSTOM_CALL:
		return check_custom_call(v);
	case XRT_OP_IOTA:
		if (vfy_operands(v, 0, 0) || vfy_int(v, IR_ATTR_IOTA_DIMENSION, &d))
			return -1;
		if (xrt_shape_is_tuple(r) || r->dtype == XRT_PRED || d < 0 || d >= r->rank)
			return vfy_fail(v, "iota_dimension %lld for %s of rank %u",
					(long long)d, xrt_dtype_name(r->dtype), r->rank);
		return 0;
	case XRT_OP_TUPLE:
		return check_tuple(v);
	case XRT_OP_GET_TUPLE_ELEMENT:
		return check_gte(v);
	case XRT_OP_COPY:
		return vfy_operands(v, 1, 1) || vfy_result_is(v, vfy_opnd(v, 0));
	case XRT_OP_BITCAST:
		return check_reshape(v, true);
	case XRT_OP_RESHAPE:
		return check_reshape(v, false);
	case XRT_OP_BROADCAST:
		return check_broadcast(v);
	case XRT_OP_TRANSPOSE:
		return check_transpose(v);
	case XRT_OP_SLICE:
		return check_slice(v);
	case XRT_OP_DYNAMIC_SLICE:
		return check_dynamic_slice(v);
	case XRT_OP_DYNAMIC_UPDATE_SLICE:
		return check_dus(v);
	case XRT_OP_CONCATENATE:
		return check_concatenate(v);
	case XRT_OP_PAD:
		return check_pad(v);
	case XRT_OP_REVERSE: {
		const int64_t *p;
		uint32_t n;

		if (vfy_operands(v, 1, 1) || vfy_array(v, 0) ||
		    vfy_ints(v, IR_ATTR_DIMENSIONS, &p, &n) ||
		    vfy_dims_in_range(v, "dimensions", p, n, vfy_opnd(v, 0)->rank))
			return -1;
		return vfy_result_is(v, vfy_opnd(v, 0));
	}
	case XRT_OP_GATHER:
		return check_gather(v);
	case XRT_OP_SCATTER:
		return vfy_scatter(v);
	case XRT_OP_RNG:
		return check_rng(v);
	case XRT_OP_RNG_BIT_GENERATOR:
		return check_rbg(v);
	default:
		return vfy_fail(v, "no verifier for this opcode");
	}
}
