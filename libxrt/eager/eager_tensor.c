// SPDX-License-Identifier: MIT
/*
 * Tensors: a refcounted row-major array on one device.  host:0 keeps it
 * in 64-byte aligned host memory, owned or wrapped; another device in
 * one of its buffers, mapped into this process.
 */
#include <stdint.h>
#include <string.h>

#include "core/mem.h"
#include "runtime/copy.h"
#include "eager_internal.h"

/* Pred elements are 0 or 1: the engine relies on it. */
static xrt_status *check_preds(xrt_eager_context *c, enum xrt_dtype dtype, const void *data,
			       size_t size)
{
	const uint8_t *p = data;
	size_t i;

	for (i = 0; dtype == XRT_PRED && i < size; i++) {
		if (p[i] > 1)
			return xrt_status_new(c->a, XRT_INVALID_ARGUMENT,
					      "tensor: pred element %zu is %u, not 0 or 1", i, p[i]);
	}
	return NULL;
}

static xrt_status *check_shape(xrt_eager_context *c, enum xrt_dtype dtype, uint32_t rank,
			       const int64_t *dims, struct xrt_shape *s)
{
	if (dtype == XRT_TUPLE)
		return xrt_status_new(c->a, XRT_INVALID_ARGUMENT,
				      "tensor: a tensor is an array, not a tuple");
	if (rank && !dims)
		return xrt_status_new(c->a, XRT_INVALID_ARGUMENT, "tensor: dims is NULL");
	return xrt_shape_init_array(s, dtype, rank, dims);
}

/* The header rounded up so that the elements after it are 64-byte aligned. */
#define HEADER_BYTES	((sizeof(xrt_tensor) + 63) & ~(size_t)63)

static void pool_lock(struct tensor_pool *p)
{
	while (atomic_flag_test_and_set_explicit(&p->lock, memory_order_acquire))
		;
}

static void pool_unlock(struct tensor_pool *p)
{
	atomic_flag_clear_explicit(&p->lock, memory_order_release);
}

/* The bytes of a block of size class @k. */
static uint64_t class_bytes(int k)
{
	uint64_t base;

	if (k < POOL_SMALL)
		return 128u << k;
	base = 4096ull << ((k - POOL_SMALL) / 4);
	return base + base / 4 * (uint64_t)((k - POOL_SMALL) % 4 + 1);
}

/* The size class of a block of @bytes, or -1 when too big to keep. */
static int size_class(uint64_t bytes)
{
	int k;

	for (k = 0; k < POOL_CLASSES; k++) {
		if (bytes <= class_bytes(k))
			return k;
	}
	return -1;
}

static void *pool_get(xrt_eager_context *c, int k)
{
	struct tensor_pool *p = &c->pool_blocks;
	void *b = NULL;

	pool_lock(p);
	if (p->n[k]) {
		b = p->blocks[k][--p->n[k]];
		p->bytes -= class_bytes(k);
	}
	pool_unlock(p);
	return b ? b : xrt_mem_alloc_aligned(c->a, class_bytes(k), 64);
}

/* Keeps @b for reuse if there is room; else frees it. */
static void pool_put(xrt_eager_context *c, int k, void *b)
{
	struct tensor_pool *p = &c->pool_blocks;

	pool_lock(p);
	if (p->n[k] < POOL_KEEP && (k < POOL_SMALL || p->bytes + class_bytes(k) <= POOL_BUDGET)) {
		p->blocks[k][p->n[k]++] = b;
		p->bytes += class_bytes(k);
		b = NULL;
	}
	pool_unlock(p);
	xrt_mem_free(c->a, b);
}

void eager_pool_drain(xrt_eager_context *c)
{
	struct tensor_pool *p = &c->pool_blocks;
	int k;

	pool_lock(p);
	for (k = 0; k < POOL_CLASSES; k++) {
		while (p->n[k])
			xrt_mem_free(c->a, p->blocks[k][--p->n[k]]);
	}
	p->bytes = 0;
	pool_unlock(p);
}

/* Field by field: a memset of the header was a third of making a tensor. */
static void set_header(xrt_tensor *t, xrt_eager_context *c, uint32_t device,
		       const struct xrt_shape *s, uint64_t bytes)
{
	atomic_init(&t->refs, 1);
	t->c = c;
	t->device = device;
	t->dtype = s->dtype;
	t->rank = s->rank;
	memcpy(t->dims, s->dims, sizeof(t->dims));
	t->bytes = bytes;
}

/* A tensor in a buffer of device @device. */
static xrt_status *device_tensor(xrt_eager_context *c, uint32_t device,
				 const struct xrt_shape *s, xrt_tensor **out)
{
	struct xdev *d = c->dev[device];
	xrt_tensor *t = xrt_mem_calloc(c->a, 1, sizeof(*t));
	xrt_status *st;

	if (!t)
		return xrt_status_oom(c->a, "a tensor");
	st = d->ops->alloc(d, xrt_shape_byte_size(s), c->a, &t->buf);
	if (st) {
		xrt_mem_free(c->a, t);
		return st;
	}
	set_header(t, c, device, s, xrt_shape_byte_size(s));
	t->data = t->buf.data;
	t->pool_class = -1;
	*out = t;
	return NULL;
}

/*
 * On host:0, one block holds the tensor and its elements: one allocation
 * per output.
 */
xrt_status *eager_tensor_new(xrt_eager_context *c, uint32_t device, const struct xrt_shape *s,
			     uint64_t bytes, xrt_tensor **out)
{
	xrt_tensor *t;
	int k;

	*out = NULL;
	if (c->dev[device])
		return device_tensor(c, device, s, out);
	if (bytes > SIZE_MAX - HEADER_BYTES)
		return xrt_status_new(c->a, XRT_RESOURCE_EXHAUSTED, "a tensor of %llu bytes",
				      (unsigned long long)bytes);
	k = size_class(HEADER_BYTES + bytes);
	t = k >= 0 ? pool_get(c, k) : xrt_mem_alloc_aligned(c->a, HEADER_BYTES + bytes, 64);
	if (!t)
		return xrt_status_oom(c->a, "a tensor");
	set_header(t, c, device, s, bytes);
	t->data = (uint8_t *)t + HEADER_BYTES;
	memset(&t->buf, 0, sizeof(t->buf));
	atomic_init(&t->host_copy, NULL);
	t->inline_data = true;
	t->pool_class = (int8_t)k;
	t->deleter = NULL;
	t->arg = NULL;
	t->var = NULL;
	*out = t;
	return NULL;
}

/* The checks both ways of making a tensor start with. */
static xrt_status *start(xrt_eager_context *c, enum xrt_dtype dtype, uint32_t rank,
			 const int64_t *dims, struct xrt_shape *s, xrt_tensor **out)
{
	if (!c || !out)
		return xrt_status_new(c ? c->a : NULL, XRT_INVALID_ARGUMENT,
				      "tensor: %s is NULL", c ? "out" : "the context");
	*out = NULL;
	return check_shape(c, dtype, rank, dims, s);
}

xrt_status *xrt_tensor_from_host(xrt_eager_context *c, enum xrt_dtype dtype, uint32_t rank,
				 const int64_t *dims, const void *data, size_t size,
				 xrt_tensor **out)
{
	struct xrt_shape s;
	xrt_status *st;

	st = start(c, dtype, rank, dims, &s, out);
	if (st)
		return st;
	if (size != xrt_shape_byte_size(&s) || (size && !data))
		return xrt_status_new(c->a, XRT_INVALID_ARGUMENT,
				      "tensor: %zu bytes given, the shape needs %llu", size,
				      (unsigned long long)xrt_shape_byte_size(&s));
	st = check_preds(c, dtype, data, size);
	if (!st)
		st = eager_tensor_new(c, c->default_device, &s, size, out);
	if (!st && c->dev[c->default_device])
		st = xdev_write(c->dev[c->default_device], &(*out)->buf, 0, data, size, c->a);
	else if (!st && size)
		memcpy((*out)->data, data, size);
	if (st && *out) {
		xrt_tensor_unref(*out);
		*out = NULL;
	}
	return st;
}

xrt_status *xrt_tensor_wrap_host(xrt_eager_context *c, enum xrt_dtype dtype, uint32_t rank,
				 const int64_t *dims, void *data, size_t size,
				 void (*deleter)(void *data, void *arg), void *arg,
				 xrt_tensor **out)
{
	struct xrt_shape s;
	xrt_status *st;
	xrt_tensor *t;

	st = start(c, dtype, rank, dims, &s, out);
	if (st)
		return st;
	if (size != xrt_shape_byte_size(&s) || !data || ((uintptr_t)data & 63))
		return xrt_status_new(c->a, XRT_INVALID_ARGUMENT,
				      "tensor: wrapped memory must be 64-byte aligned and hold "
				      "exactly %llu bytes (%zu given)",
				      (unsigned long long)xrt_shape_byte_size(&s), size);
	st = check_preds(c, dtype, data, size);
	if (st)
		return st;
	t = xrt_mem_calloc(c->a, 1, sizeof(*t));
	if (!t)
		return xrt_status_oom(c->a, "a tensor");
	atomic_init(&t->refs, 1);
	t->c = c;
	t->device = (uint32_t)eager_find_device(c, "host:0");
	t->dtype = dtype;
	t->rank = rank;
	memcpy(t->dims, s.dims, sizeof(t->dims));
	t->bytes = size;
	t->data = data;
	t->deleter = deleter;
	t->arg = arg;
	t->pool_class = -1;
	*out = t;
	return NULL;
}

xrt_tensor *xrt_tensor_ref(xrt_tensor *t)
{
	if (t)
		atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
	return t;
}

void xrt_tensor_unref(xrt_tensor *t)
{
	if (!t || atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) != 1)
		return;
	if (t->deleter)
		t->deleter(t->data, t->arg);
	if (t->var)
		eager_var_free(t->var);
	if (t->c->dev[t->device] && xdev_buf_live(&t->buf))
		t->c->dev[t->device]->ops->free(t->c->dev[t->device], &t->buf, t->c->a);
	xrt_mem_free(t->c->a, atomic_load(&t->host_copy));
	if (t->inline_data && t->pool_class >= 0)
		pool_put(t->c, t->pool_class, t);
	else
		xrt_mem_free(t->c->a, t);
}

bool xrt_tensor_is_resource(const xrt_tensor *t)
{
	return t && t->var;
}

enum xrt_dtype xrt_tensor_dtype(const xrt_tensor *t)
{
	return t ? t->dtype : XRT_INVALID;
}

uint32_t xrt_tensor_rank(const xrt_tensor *t)
{
	return t ? t->rank : 0;
}

int64_t xrt_tensor_dim(const xrt_tensor *t, uint32_t i)
{
	return t && i < t->rank ? t->dims[i] : -1;
}

uint64_t xrt_tensor_element_count(const xrt_tensor *t)
{
	uint64_t n = 1;
	uint32_t i;

	for (i = 0; t && i < t->rank; i++)
		n *= (uint64_t)t->dims[i];
	return t ? n : 0;
}

const char *xrt_tensor_device(const xrt_tensor *t)
{
	return t ? t->c->devices[t->device] : NULL;
}

xrt_status *eager_tensor_host(const xrt_tensor *t, const void **out)
{
	xrt_tensor *m = (xrt_tensor *)t;	/* the copy is a cache: t is unchanged */
	void *p = t->data, *none = NULL;
	xrt_status *st;

	if (!p)
		p = atomic_load(&m->host_copy);
	if (p) {
		*out = p;
		return NULL;
	}
	p = xrt_mem_alloc_aligned(t->c->a, t->bytes ? t->bytes : 1, 64);
	if (!p)
		return xrt_status_oom(t->c->a, "a host copy of a tensor");
	st = xdev_read(t->c->dev[t->device], &t->buf, 0, p, t->bytes, t->c->a);
	if (st) {
		xrt_mem_free(t->c->a, p);
		return st;
	}
	/* two threads may read it at once: the first copy stays */
	if (!atomic_compare_exchange_strong(&m->host_copy, &none, p)) {
		xrt_mem_free(t->c->a, p);
		p = none;
	}
	*out = p;
	return NULL;
}

const void *eager_tensor_values(const xrt_tensor *t)
{
	return t->data ? t->data : atomic_load(&((xrt_tensor *)t)->host_copy);
}

const void *xrt_tensor_data(const xrt_tensor *t, size_t *size)
{
	const void *p = NULL;
	xrt_status *st;

	if (size)
		*size = 0;
	if (!t || t->var)
		return NULL;
	/* mapped devices' buffers are in this process; the others' are copied here once */
	st = eager_tensor_host(t, &p);
	if (st) {
		xrt_status_free(st);
		return NULL;
	}
	if (size)
		*size = (size_t)t->bytes;
	return p;
}

xrt_status *xrt_tensor_resolve(const xrt_tensor *t, xrt_literal **out)
{
	struct xrt_shape s;
	xrt_status *st;

	if (!t || !out)
		return xrt_status_new(t ? t->c->a : NULL, XRT_INVALID_ARGUMENT,
				      "resolve: %s is NULL", t ? "out" : "the tensor");
	if (t->var)
		return xrt_status_new(t->c->a, XRT_INVALID_ARGUMENT,
				      "resolve: a resource handle has no value; read it with "
				      "ReadVariableOp");
	const void *p = NULL;

	st = eager_tensor_host(t, &p);
	if (!st)
		st = xrt_shape_init_array(&s, t->dtype, t->rank, t->dims);
	if (!st)
		st = xrt_literal_create_from(t->c->a, &s, p, t->bytes, out);
	return st;
}

/* Between two devices other than host:0: PRIME where they share buffers. */
static xrt_status *copy_between_devices(const xrt_tensor *t, xrt_tensor *out)
{
	xrt_eager_context *c = t->c;
	struct xdev_queue *q;
	xrt_status *st = eager_queue(c, out->device, &q);

	return st ? st : xcopy_buffer(c->dev[t->device], &t->buf, c->dev[out->device], q,
				      &out->buf, t->bytes, c->a);
}

xrt_status *xrt_tensor_copy_to_device(xrt_tensor *t, const char *device, xrt_tensor **out)
{
	struct xrt_shape s;
	xrt_status *st;
	int d;

	if (!t || !device || !out)
		return xrt_status_new(t ? t->c->a : NULL, XRT_INVALID_ARGUMENT,
				      "copy: %s is NULL", !t ? "the tensor" : !device ?
				      "the device" : "out");
	*out = NULL;
	if (t->var)
		return xrt_status_new(t->c->a, XRT_INVALID_ARGUMENT,
				      "copy: a resource handle stays on its device");
	d = eager_find_device(t->c, device);
	if (d < 0)
		return xrt_status_new(t->c->a, XRT_NOT_FOUND, "copy: no device '%.64s'", device);
	st = xrt_shape_init_array(&s, t->dtype, t->rank, t->dims);
	if (!st)
		st = eager_tensor_new(t->c, (uint32_t)d, &s, xrt_shape_byte_size(&s), out);
	if (st)
		return st;
	if (t->c->dev[d] && t->c->dev[t->device])
		st = copy_between_devices(t, *out);
	else if (t->c->dev[d])			/* host to a device */
		st = xdev_write(t->c->dev[d], &(*out)->buf, 0, t->data, t->bytes, t->c->a);
	else if (t->c->dev[t->device])		/* a device to the host */
		st = xdev_read(t->c->dev[t->device], &t->buf, 0, (*out)->data, t->bytes, t->c->a);
	else
		memcpy((*out)->data, t->data, t->bytes);
	if (st) {
		xrt_tensor_unref(*out);
		*out = NULL;
	}
	return st;
}
