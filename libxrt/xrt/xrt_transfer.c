// SPDX-License-Identifier: MIT
/*
 * xrt_transfer(): an allocation of one session copied into another's
 * device, leaf by leaf (runtime/copy.h moves the bytes).
 */
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "runtime/copy.h"
#include "xrt_internal.h"

/* Each leaf of @from copied into the same leaf of @to. */
static xrt_status *copy_tree(xrt_session *src, const struct xnode *from, xrt_session *dst,
			     struct xdev_queue *q, struct xnode *to)
{
	xrt_status *st = NULL;
	uint32_t i;

	for (i = 0; from->kids && i < from->shape.tuple_count && !st; i++)
		st = copy_tree(src, from->kids[i], dst, q, to->kids[i]);
	if (!from->kids)
		st = xcopy_buffer(src->dev, &from->buf, dst->dev, q, &to->buf, from->bytes,
				  dst->a);
	return st;
}

static xrt_status *do_transfer(xrt_session *from, xrt_handle h, xrt_session *to,
			       xrt_handle *out)
{
	struct xnode *n = NULL, *copy = NULL;
	struct xdev_queue *q = NULL;
	xrt_status *st;

	if (!from || !to || !out)
		return xrt_status_new(from ? from->a : NULL, XRT_INVALID_ARGUMENT,
				      "transfer: %s is NULL", !from ? "the source session" :
				      !to ? "the destination session" : "out");
	st = xalloc_get(from, h, &n);
	if (!st)
		st = xnode_settle(from, n);
	if (!st)
		st = xsession_queue(to, &q);
	if (!st)
		st = xnode_from_shape(to, &n->shape, &copy);
	if (!st)
		st = copy_tree(from, n, to, q, copy);
	if (!st)
		st = xalloc_add(to, copy, out);
	else
		xnode_unref(to, copy);
	xnode_unref(from, n);
	return st;
}

xrt_status *xrt_transfer(xrt_session *from, xrt_handle h, xrt_session *to, xrt_handle *out)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_transfer(from, h, to, out);

	if (to)
		xstat_record(to, XRT_STAT_ALLOCATE, t0, st);
	return st;
}
