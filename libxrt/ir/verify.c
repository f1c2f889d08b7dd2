// SPDX-License-Identifier: MIT
/*
 * Verification: every instruction's declared shape is the one its
 * opcode, operands and attributes give (XLA's shape inference), every
 * attribute is in range, every called computation has the signature
 * its caller needs.  Errors name the computation and instruction.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/fmtbuf.h"
#include "core/shape_format.h"
#include "core/mem.h"
#include "verify.h"

int vfy_fail(struct vfy *v, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	v->err = xrt_status_new(v->m->alloc, XRT_INVALID_ARGUMENT,
				"computation '%s', instruction '%s' (%s): %s",
				v->c->name, v->in->name, xrt_opcode_name(v->in->op), msg);
	return -1;
}

/*
 * Checks take their operands' shapes before counting the operands, so
 * a missing operand gets a blank shape here and the count fails later.
 */
const struct xrt_shape *vfy_opnd(const struct vfy *v, uint32_t i)
{
	static const struct xrt_shape missing;

	if (i >= v->in->num_operands)
		return &missing;
	return &v->c->instrs[v->in->operands[i]].shape;
}

int vfy_operands(struct vfy *v, uint32_t min, uint32_t max)
{
	uint32_t n = v->in->num_operands;

	if (n < min || n > max) {
		if (min == max)
			return vfy_fail(v, "%u operands, expected %u", n, min);
		return vfy_fail(v, "%u operands, expected %u to %u", n, min, max);
	}
	return 0;
}

static void shape_text(const struct xrt_shape *s, char *buf, size_t n)
{
	struct fmtbuf f;

	fmtbuf_init(&f, buf, n);
	xrt_shape_print(&f, s, false);
}

int vfy_result_is(struct vfy *v, const struct xrt_shape *want)
{
	char a[128], b[128];
	struct xrt_shape copy;

	if (v->infer) {
		v->err = xrt_shape_copy(&copy, v->m->alloc, want);
		if (v->err)
			return -1;
		xrt_shape_deinit(v->infer);
		*v->infer = copy;
		return 0;
	}
	if (xrt_shape_compatible(&v->in->shape, want))
		return 0;
	shape_text(&v->in->shape, a, sizeof(a));
	shape_text(want, b, sizeof(b));
	return vfy_fail(v, "shape is %s, its operands give %s", a, b);
}

int vfy_result(struct vfy *v, enum xrt_dtype t, uint32_t rank, const int64_t *dims)
{
	struct xrt_shape want;
	xrt_status *st = xrt_shape_init_array(&want, t, rank, dims);

	if (st) {
		vfy_fail(v, "%s", xrt_status_message(st));
		xrt_status_free(st);
		return -1;
	}
	return vfy_result_is(v, &want);
}

int vfy_result_tuple(struct vfy *v, const struct xrt_shape *elems, uint32_t n)
{
	struct xrt_shape want;
	xrt_status *st;
	int ret;

	st = xrt_shape_init_tuple(&want, v->m->alloc, elems, n);
	if (st) {
		if (xrt_status_code(st) == XRT_RESOURCE_EXHAUSTED) {
			v->err = st;
			return -1;
		}
		vfy_fail(v, "%s", xrt_status_message(st));
		xrt_status_free(st);
		return -1;
	}
	ret = vfy_result_is(v, &want);
	xrt_shape_deinit(&want);
	return ret;
}

int vfy_array(struct vfy *v, uint32_t i)
{
	if (xrt_shape_is_tuple(vfy_opnd(v, i)))
		return vfy_fail(v, "operand %u is a tuple, expected an array", i);
	return 0;
}

int vfy_like_first(struct vfy *v, uint32_t i)
{
	const struct xrt_shape *a = vfy_opnd(v, 0), *b = vfy_opnd(v, i);
	uint32_t k;

	if (vfy_array(v, i))
		return -1;
	if (b->rank != a->rank)
		return vfy_fail(v, "operand %u has rank %u, operand 0 has %u", i, b->rank,
				a->rank);
	for (k = 0; k < a->rank; k++) {
		if (b->dims[k] != a->dims[k])
			return vfy_fail(v, "operand %u's dimension %u differs from operand 0's",
					i, k);
	}
	return 0;
}

int vfy_scalar(struct vfy *v, uint32_t i)
{
	if (vfy_array(v, i))
		return -1;
	if (vfy_opnd(v, i)->rank)
		return vfy_fail(v, "operand %u has rank %u, expected a scalar", i,
				vfy_opnd(v, i)->rank);
	return 0;
}

int vfy_ints(struct vfy *v, enum ir_attr_key key, const int64_t **vals,
	     uint32_t *n)
{
	const struct ir_attr *a = ir_instr_attr(v->in, key);

	if (!a)
		return vfy_fail(v, "attribute '%s' missing", ir_attr_name(key));
	*vals = a->ints;
	*n = a->n;
	return 0;
}

int vfy_int(struct vfy *v, enum ir_attr_key key, int64_t *val)
{
	const int64_t *p = NULL;
	uint32_t n = 0;

	if (vfy_ints(v, key, &p, &n))
		return -1;
	if (!n)
		return vfy_fail(v, "attribute '%s' has no value", ir_attr_name(key));
	*val = p[0];
	return 0;
}

int vfy_dims_in_range(struct vfy *v, const char *what, const int64_t *d,
		      uint32_t n, uint32_t rank)
{
	bool seen[XRT_MAX_RANK + 1] = { false };
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (d[i] < 0 || d[i] >= rank || rank > XRT_MAX_RANK)
			return vfy_fail(v, "%s: dimension %lld out of range for rank %u",
					what, (long long)d[i], rank);
		if (seen[d[i]])
			return vfy_fail(v, "%s: dimension %lld repeated", what,
					(long long)d[i]);
		seen[d[i]] = true;
	}
	return 0;
}

int vfy_called(struct vfy *v, enum ir_attr_key key, const struct ir_comp **c)
{
	const struct ir_attr *a = ir_instr_attr(v->in, key);

	if (!a || !a->n)
		return vfy_fail(v, "attribute '%s' missing", ir_attr_name(key));
	*c = &v->m->comps[a->ints[0]];
	return 0;
}

const struct xrt_shape *vfy_param_shape(const struct ir_comp *c, uint32_t i)
{
	uint32_t k;

	for (k = 0; k < c->num_instrs; k++) {
		if (c->instrs[k].op == XRT_OP_PARAMETER && c->instrs[k].parameter == i)
			return &c->instrs[k].shape;
	}
	return NULL;
}

const struct xrt_shape *vfy_root_shape(const struct ir_comp *c)
{
	return &c->instrs[c->root].shape;
}

/* Parameter numbers 0 to n - 1, each once: one pass, a byte a number. */
int vfy_params(struct vfy *v)
{
	uint32_t i, n = v->c->num_params;
	uint8_t *seen = xrt_mem_calloc(v->m->alloc, n + 1, 1);
	int rc = 0;

	if (!seen) {
		v->err = xrt_status_oom(v->m->alloc, "verifying parameters");
		return -1;
	}
	for (i = 0; i < v->c->num_instrs && !rc; i++) {
		const struct ir_instr *in = &v->c->instrs[i];

		if (in->op != XRT_OP_PARAMETER)
			continue;
		v->in = in;
		if (in->parameter < 0 || in->parameter >= n)
			rc = vfy_fail(v, "parameter number %lld, the computation has %u",
				      (long long)in->parameter, n);
		else if (seen[in->parameter]++)
			rc = vfy_fail(v, "parameter number %lld used twice",
				      (long long)in->parameter);
	}
	xrt_mem_free(v->m->alloc, seen);
	return rc;
}

int vfy_instr(struct vfy *v)
{
	enum xrt_opcode op = v->in->op;

	/* the reader rewrites fft and batch norms; an IR that kept their attributes is made up */
	if (ir_instr_attr(v->in, IR_ATTR_FFT_TYPE) || ir_instr_attr(v->in, IR_ATTR_FFT_LENGTH))
		return vfy_fail(v, "fft_type and fft_length belong to fft, which HLO's reader "
				"rewrites into dots");
	if (ir_instr_attr(v->in, IR_ATTR_EPSILON) || ir_instr_attr(v->in, IR_ATTR_FEATURE_INDEX))
		return vfy_fail(v, "epsilon and feature_index belong to the batch norms, which "
				"HLO's reader rewrites into their arithmetic");
	if (ir_instr_attr(v->in, IR_ATTR_LEFT_SIDE) || ir_instr_attr(v->in, IR_ATTR_LOWER) ||
	    ir_instr_attr(v->in, IR_ATTR_UNIT_DIAGONAL) || ir_instr_attr(v->in, IR_ATTR_TRANSPOSE_A))
		return vfy_fail(v, "left_side, lower, unit_diagonal and transpose_a belong to "
				"cholesky and triangular-solve, which HLO's reader rewrites");
	if (op != XRT_OP_CUSTOM_CALL && ir_instr_attr(v->in, IR_ATTR_OPERAND_LAYOUT_CONSTRAINTS))
		return vfy_fail(v, "operand_layout_constraints belong to custom calls");
	if (xrt_opcode_is_unary(op) || xrt_opcode_is_binary(op) ||
	    op == XRT_OP_COMPARE || op == XRT_OP_SELECT || op == XRT_OP_CLAMP ||
	    op == XRT_OP_CONVERT || op == XRT_OP_BITCAST_CONVERT ||
	    op == XRT_OP_REDUCE_PRECISION)
		return vfy_elementwise(v);
	if (xrt_opcode_is_collective(op))
		return vfy_collective(v);
	switch (op) {
	case XRT_OP_REDUCE:
	case XRT_OP_REDUCE_WINDOW:
	case XRT_OP_SELECT_AND_SCATTER:
	case XRT_OP_DOT:
	case XRT_OP_CONVOLUTION:
	case XRT_OP_SORT:
	case XRT_OP_TOPK:
		return vfy_reductions(v);
	case XRT_OP_WHILE:
	case XRT_OP_CONDITIONAL:
	case XRT_OP_CALL:
	case XRT_OP_MAP:
		return vfy_calls(v);
	default:
		return vfy_structural(v);
	}
}

/*
 * Operands come before their instruction: the module is acyclic, which
 * everything that walks operands recursively (the compiler's fusion, the
 * evaluator) takes for granted.  The readers ensure it; a module put
 * together some other way is checked here.
 */
static int vfy_order(struct vfy *v, uint32_t i)
{
	uint32_t k;

	for (k = 0; k < v->in->num_operands; k++) {
		if (v->in->operands[k] >= i)
			return vfy_fail(v, "operand %u does not come before the instruction", k);
	}
	return 0;
}

/* A check that fails without saying why is a bug; never let it pass. */
static xrt_status *failed(struct vfy *v)
{
	if (v->err)
		return v->err;
	return xrt_status_new(v->m->alloc, XRT_INTERNAL,
			      "verify: computation '%s': a check failed without a message",
			      v->c->name);
}

xrt_status *xrt_module_verify(const xrt_module *m)
{
	struct vfy v = { m, NULL, NULL, NULL, NULL };
	uint32_t ci, i;

	if (!m)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "verify: module is NULL");
	for (ci = 0; ci < m->num_comps; ci++) {
		v.c = &m->comps[ci];
		if (vfy_params(&v))
			return failed(&v);
		for (i = 0; i < v.c->num_instrs; i++) {
			v.in = &v.c->instrs[i];
			if (vfy_order(&v, i) || vfy_instr(&v))
				return failed(&v);
		}
	}
	return NULL;
}
