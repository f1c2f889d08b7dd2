// SPDX-License-Identifier: MIT
/*
 * Each kind of COLLECTIVE through NCCL, enqueued on the device's stream:
 * NCCL's collectives on the group's communicator, sends and receives on
 * the world's, and staging copies, a row at a time, for blocks that are
 * not contiguous (a dimension gathered, scattered or split that is not
 * the outermost).
 */
#include "engine/scalar.h"
#include "cuda_nccl.h"

/* NCCL's type for @dtype, or -1 (moved as bytes, never reduced). */
static int nccl_type(uint32_t dtype)
{
	switch (dtype) {
	case XRT_CS_PRED: case XRT_CS_U8: return ncclUint8;
	case XRT_CS_S8: return ncclInt8;
	case XRT_CS_S32: return ncclInt32;
	case XRT_CS_U32: return ncclUint32;
	case XRT_CS_S64: return ncclInt64;
	case XRT_CS_U64: return ncclUint64;
	case XRT_CS_F16: return ncclFloat16;
	case XRT_CS_BF16: return ncclBfloat16;
	case XRT_CS_F32: return ncclFloat32;
	case XRT_CS_F64: return ncclFloat64;
	default: return -1;
	}
}

/* NCCL's reduction for REDUCE op @op on @dtype, or -1. */
static int nccl_op(uint32_t op, uint32_t dtype)
{
	switch (op) {
	case XRT_CS_RED_SUM: return ncclSum;
	case XRT_CS_RED_PROD: return ncclProd;
	case XRT_CS_RED_MIN: return ncclMin;
	case XRT_CS_RED_MAX: return ncclMax;
	case XRT_CS_RED_AND: return dtype == XRT_CS_PRED ? ncclMin : -1;
	case XRT_CS_RED_OR: return dtype == XRT_CS_PRED ? ncclMax : -1;
	default: return -1;
	}
}

static uint64_t elems(const struct xdev_coll_array *a)
{
	uint64_t n = 1;
	uint32_t k;

	for (k = 0; k < a->rank; k++)
		n *= a->dims[k];
	return n;
}

/* Rows outside dimension @dim and bytes of one row from @dim in, of array @a split @parts ways. */
static void split_rows(const struct xdev_coll_array *a, uint32_t dim, uint32_t parts,
		       uint64_t *rows, uint64_t *row_bytes)
{
	uint64_t inner = xs_dtype_size(a->dtype);
	uint32_t k;

	*rows = 1;
	for (k = 0; a->rank && k < dim; k++)
		*rows *= a->dims[k];
	for (k = dim; k < a->rank; k++)
		inner *= a->dims[k];
	*row_bytes = inner / parts;
}

/* A staging buffer of at least @bytes for rank @d. */
static xrt_status *staging(struct nccl_comm *c, uint32_t d, int which, uint64_t bytes)
{
	struct nccl_rank *r = &c->ranks[d];
	CUresult res;

	if (r->tmp_size[which] >= bytes)
		return NULL;
	if (r->tmp[which])
		c->cu->cuMemFree(r->tmp[which]);
	r->tmp[which] = 0;
	r->tmp_size[which] = 0;
	res = c->cu->cuMemAlloc(&r->tmp[which], bytes ? bytes : 1);
	if (res != CUDA_SUCCESS)
		return cuda_error(NULL, c->cu, res, "staging a collective",
				  (int)r->dev->base.info.ordinal);
	r->tmp_size[which] = bytes;
	return NULL;
}

/*
 * Copies between an array seen as [rows][parts][row] (@strided) and the
 * contiguous [parts][rows][row] (@packed); @pack: into packed.
 */
static CUresult repack(const struct cuda_api *cu, CUdeviceptr strided, CUdeviceptr packed,
		       uint64_t rows, uint32_t parts, uint64_t row, bool pack, CUstream s)
{
	CUresult r = CUDA_SUCCESS;
	uint64_t i, j;

	for (j = 0; j < parts && r == CUDA_SUCCESS; j++)
		for (i = 0; i < rows && r == CUDA_SUCCESS; i++) {
			CUdeviceptr a = strided + (i * parts + j) * row;
			CUdeviceptr b = packed + (j * rows + i) * row;

			r = pack ? cu->cuMemcpyDtoDAsync(b, a, row, s) :
				   cu->cuMemcpyDtoDAsync(a, b, row, s);
		}
	return r;
}

static CUdeviceptr dptr(const uint8_t *p)
{
	return (CUdeviceptr)(uintptr_t)p;
}

/* ALL_REDUCE and BROADCAST: each array on the group's communicator. */
ncclResult_t nccl_reduce_or_broadcast(struct nccl_comm *c, const struct xdev_collective *op,
					ncclComm_t comm, CUstream s)
{
	const struct cuda_api *cu = c->cu;
	ncclResult_t r = ncclSuccess;
	uint32_t k;

	for (k = 0; k < op->cmd->num_in && r == ncclSuccess; k++) {
		const struct xdev_coll_array *in = &op->in[k], *out = &op->out[k];

		if (op->cmd->kind == XRT_CS_COLL_BROADCAST)
			r = cu->ncclBroadcast(in->data, out->data, elems(in) *
					      xs_dtype_size(in->dtype), ncclUint8, 0, comm, s);
		else
			r = cu->ncclAllReduce(in->data, out->data, elems(in),
					      (ncclDataType_t)nccl_type(in->dtype),
					      (ncclRedOp_t)nccl_op(op->cmd->op, in->dtype), comm, s);
	}
	return r;
}

/* ALL_GATHER (into staging, then placed) and REDUCE_SCATTER (from packed staging). */
xrt_status *nccl_gather_or_scatter(struct nccl_comm *c, uint32_t d,
				     const struct xdev_collective *op, ncclComm_t comm,
				     CUstream s, ncclResult_t *res)
{
	const struct cuda_api *cu = c->cu;
	bool gather = op->cmd->kind == XRT_CS_COLL_ALL_GATHER;
	uint32_t k, n = op->size;
	uint64_t rows, row;
	CUresult cr = CUDA_SUCCESS;
	xrt_status *st = NULL;

	for (k = 0; k < op->cmd->num_in && *res == ncclSuccess && !st; k++) {
		const struct xdev_coll_array *in = &op->in[k], *out = &op->out[k];
		CUdeviceptr src = dptr(in->data), dst = dptr(out->data);

		split_rows(gather ? out : in, op->cmd->dim, n, &rows, &row);
		if (rows > 1) {
			st = staging(c, d, 0, rows * row * n);
			if (st)
				break;
			if (gather)
				dst = c->ranks[d].tmp[0];
			else
				cr = repack(cu, src, c->ranks[d].tmp[0], rows, n, row, true, s);
			if (!gather)
				src = c->ranks[d].tmp[0];
		}
		if (cr != CUDA_SUCCESS)
			break;
		if (gather)
			*res = cu->ncclAllGather((void *)(uintptr_t)src, (void *)(uintptr_t)dst,
						 rows * row, ncclUint8, comm, s);
		else
			*res = cu->ncclReduceScatter((void *)(uintptr_t)src, (void *)(uintptr_t)dst,
						     elems(out), (ncclDataType_t)nccl_type(in->dtype),
						     (ncclRedOp_t)nccl_op(op->cmd->op, in->dtype),
						     comm, s);
		if (*res == ncclSuccess && gather && rows > 1)
			cr = repack(cu, dptr(out->data), dst, rows, n, row, false, s);
	}
	if (!st && cr != CUDA_SUCCESS)
		st = cuda_error(NULL, cu, cr, "placing a collective's blocks",
				(int)c->ranks[d].dev->base.info.ordinal);
	return st;
}

/* ALL_TO_ALL of one array @k: blocks sent to and received from every member. */
ncclResult_t nccl_exchange(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			     uint32_t k, CUstream s, CUresult *cr, xrt_status **st)
{
	const struct cuda_api *cu = c->cu;
	const struct xdev_coll_array *in = &op->in[k], *out = &op->out[k];
	struct nccl_rank *r = &c->ranks[d];
	CUdeviceptr src = dptr(in->data), dst = dptr(out->data);
	ncclResult_t res = ncclSuccess;
	uint64_t rows, row;
	uint32_t j, n = op->size;

	split_rows(in, op->cmd->dim, n, &rows, &row);
	if (rows > 1) {
		*st = staging(c, d, 0, rows * row * n);
		if (!*st)
			*st = staging(c, d, 1, rows * row * n);
		if (*st)
			return ncclSuccess;
		*cr = repack(cu, src, r->tmp[0], rows, n, row, true, s);
		src = r->tmp[0];
		dst = r->tmp[1];
	}
	if (*cr != CUDA_SUCCESS)
		return res;
	cu->ncclGroupStart();
	for (j = 0; j < n && res == ncclSuccess; j++) {
		res = cu->ncclSend((void *)(uintptr_t)(src + j * rows * row), rows * row,
				   ncclUint8, (int)op->members[j], r->world, s);
		if (res == ncclSuccess)
			res = cu->ncclRecv((void *)(uintptr_t)(dst + j * rows * row), rows * row,
					   ncclUint8, (int)op->members[j], r->world, s);
	}
	if (cu->ncclGroupEnd() != ncclSuccess && res == ncclSuccess)
		res = ncclInternalError;
	if (res == ncclSuccess && rows > 1)
		*cr = repack(cu, dptr(out->data), dst, rows, n, row, false, s);
	return res;
}

/* ALL_TO_ALL_TUPLE and PERMUTE: whole arrays sent and received on the world. */
ncclResult_t nccl_send_recv(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			      CUstream s, CUresult *cr)
{
	const struct cuda_api *cu = c->cu;
	ncclComm_t w = c->ranks[d].world;
	ncclResult_t res = ncclSuccess;
	uint32_t j, k, n = op->cmd->num_in;

	cu->ncclGroupStart();
	for (k = 0; k < n && res == ncclSuccess; k++) {
		const struct xdev_coll_array *in = &op->in[k], *out = &op->out[k];
		uint64_t bytes = elems(in) * xs_dtype_size(in->dtype);

		if (op->cmd->kind == XRT_CS_COLL_ALL_TO_ALL_TUPLE) {
			res = cu->ncclSend(in->data, bytes, ncclUint8, (int)op->members[k], w, s);
			if (res == ncclSuccess)
				res = cu->ncclRecv(out->data, bytes, ncclUint8, (int)op->members[k],
						   w, s);
			continue;
		}
		for (j = 0; j < op->size && res == ncclSuccess; j++)
			if (op->source_of[op->members[j]] == (int32_t)d)
				res = cu->ncclSend(in->data, bytes, ncclUint8,
						   (int)op->members[j], w, s);
		if (res == ncclSuccess && op->source >= 0)
			res = cu->ncclRecv(out->data, bytes, ncclUint8,
					   (int)op->members[op->source], w, s);
		else if (res == ncclSuccess)
			*cr = cu->cuMemsetD8Async(dptr(out->data), 0, bytes, s);
	}
	if (cu->ncclGroupEnd() != ncclSuccess && res == ncclSuccess)
		res = ncclInternalError;
	return res;
}

/* What NCCL cannot do here: a reduction of a type or op it lacks, a sub-byte type. */
xrt_status *nccl_check(const struct xdev_collective *op)
{
	bool reduces = op->cmd->kind == XRT_CS_COLL_ALL_REDUCE ||
		       op->cmd->kind == XRT_CS_COLL_REDUCE_SCATTER;
	uint32_t k;

	for (k = 0; k < op->cmd->num_in; k++) {
		uint32_t t = op->in[k].dtype;

		if (!xs_dtype_size(t) || xs_is_sub_byte_int(t))
			return xrt_status_new(NULL, XRT_UNIMPLEMENTED, "%s: arrays of a type "
					      "narrower than a byte between cuda devices",
					      op->where);
		if (reduces && (nccl_type(t) < 0 || nccl_op(op->cmd->op, t) < 0))
			return xrt_status_new(NULL, XRT_UNIMPLEMENTED, "%s: NCCL has no such "
					      "reduction of this type (dtype %u, op %u)", op->where,
					      t, op->cmd->op);
	}
	return NULL;
}

