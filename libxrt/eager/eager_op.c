// SPDX-License-Identifier: MIT
/*
 * Ops: a registered op's name, attributes, inputs and device.  The
 * kernel key is kept on the op from hashes taken when each part is set,
 * so executing an unchanged op again costs no hashing at all.
 */
#include <string.h>

#include <xrt/dtype.h>

#include "core/fingerprint.h"
#include "core/mem.h"
#include "runtime/cache.h"
#include "eager_internal.h"

static const char *const attr_type_names[] = {
	[XRT_ATTR_STRING] = "string", [XRT_ATTR_INT] = "int", [XRT_ATTR_FLOAT] = "float",
	[XRT_ATTR_BOOL] = "bool", [XRT_ATTR_TYPE] = "type", [XRT_ATTR_SHAPE] = "shape",
	[XRT_ATTR_TENSOR] = "tensor", [XRT_ATTR_FUNC] = "func",
};

void eager_attr_clear(const struct xrt_allocator *a, struct attr_val *v)
{
	uint32_t k;

	for (k = 0; v->items && k < v->n; k++) {
		if (v->items_type == XRT_ATTR_TENSOR)
			xrt_literal_destroy(v->items[k]);
		else
			xrt_mem_free(a, v->items[k]);
	}
	xrt_mem_free(a, v->items);
	xrt_mem_free(a, v->list);
	xrt_mem_free(a, v->s);
	xrt_literal_destroy(v->tensor);
	memset(v, 0, sizeof(*v));
}

static void clear(xrt_op *op)
{
	uint32_t i;

	for (i = 0; i < EAGER_MAX_ATTRS; i++)
		eager_attr_clear(op->c->a, &op->attrs[i]);
	for (i = 0; i < op->num_inputs; i++)
		xrt_tensor_unref(op->inputs[i]);
	op->num_inputs = 0;
	op->next_def_input = 0;
	op->key_valid = false;
	if (op->entry)
		centry_unref(op->entry);
	op->entry = NULL;
}

static xrt_status *pick(xrt_op *op, const char *name, const char *device)
{
	const struct op_def *d;
	int dev = -1;
	uint32_t i;

	if (!name)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT, "op: the name is NULL");
	d = eager_find_op(name);
	if (!d)
		d = eager_find_function(op->c, name);
	if (!d)
		return xrt_status_new(op->c->a, XRT_NOT_FOUND,
				      "op: no op or function named '%.64s'", name);
	if (device && *device) {
		dev = eager_find_device(op->c, device);
		if (dev < 0)
			return xrt_status_new(op->c->a, XRT_NOT_FOUND,
					      "%s: no device '%.64s'", d->name, device);
	}
	clear(op);
	op->def = d;
	op->device = dev;
	/* Looked up once here, not by name on every execution. */
	for (i = 0; i < d->num_inputs; i++) {
		op->type_attr[i] = (int8_t)(d->inputs[i].type_attr ?
					    eager_attr_index(d, d->inputs[i].type_attr) : -1);
		op->number_attr[i] = (int8_t)(d->inputs[i].number_attr ?
					      eager_attr_index(d, d->inputs[i].number_attr) : -1);
	}
	return NULL;
}

xrt_status *xrt_op_create(xrt_eager_context *c, const char *name, xrt_op **out)
{
	xrt_status *st;
	xrt_op *op;

	if (!c || !out)
		return xrt_status_new(c ? c->a : NULL, XRT_INVALID_ARGUMENT, "op: %s is NULL",
				      c ? "out" : "the context");
	*out = NULL;
	op = xrt_mem_calloc(c->a, 1, sizeof(*op));
	if (!op)
		return xrt_status_oom(c->a, "an op");
	op->c = c;
	st = pick(op, name, NULL);
	if (st) {
		xrt_mem_free(c->a, op);
		return st;
	}
	*out = op;
	return NULL;
}

void xrt_op_destroy(xrt_op *op)
{
	if (!op)
		return;
	clear(op);
	xrt_mem_free(op->c->a, op);
}

xrt_status *xrt_op_reset(xrt_op *op, const char *name, const char *device)
{
	if (!op)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "op: the op is NULL");
	return pick(op, name, device);
}

xrt_status *xrt_op_set_device(xrt_op *op, const char *device)
{
	int dev = -1;

	if (!op)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "op: the op is NULL");
	if (device && *device) {
		dev = eager_find_device(op->c, device);
		if (dev < 0)
			return xrt_status_new(op->c->a, XRT_NOT_FOUND, "%s: no device '%.64s'",
					      op->def->name, device);
	}
	op->device = dev;
	op->key_valid = false;
	return NULL;
}

const char *xrt_op_device(const xrt_op *op)
{
	if (!op)
		return NULL;
	return op->c->devices[op->device >= 0 ? (uint32_t)op->device : op->c->default_device];
}

/* The attribute @name of @op's def, of @type; an error names what is wrong. */
static xrt_status *find_attr(const xrt_op *op, const char *name, enum xrt_attr_type type,
			     bool is_list, int *index)
{
	const struct attr_def *ad;
	int i;

	if (!op || !name)
		return xrt_status_new(op ? op->c->a : NULL, XRT_INVALID_ARGUMENT,
				      "attribute: %s is NULL", op ? "the name" : "the op");
	i = eager_attr_index(op->def, name);
	if (i < 0)
		return xrt_status_new(op->c->a, XRT_NOT_FOUND, "%s has no attribute '%.64s'",
				      op->def->name, name);
	ad = &op->def->attrs[i];
	if (ad->type != type || ad->is_list != is_list)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: attribute '%s' is a %s%s, not a %s%s", op->def->name,
				      name, ad->is_list ? "list of " : "", attr_type_names[ad->type],
				      is_list ? "list of " : "", attr_type_names[type]);
	*index = i;
	return NULL;
}

static uint64_t hash_of(int index, const int64_t *vals, uint32_t n, const char *s)
{
	uint64_t buf[EAGER_MAX_LIST + 3], out[2];
	uint32_t k = 0;

	buf[k++] = (uint64_t)index;
	buf[k++] = n;
	if (n)		/* a string attribute has no values: NULL */
		memcpy(buf + k, vals, n * sizeof(*vals));
	k += n;
	if (s) {
		xrt_fingerprint128(s, strlen(s), out);
		buf[k++] = out[0];
	}
	xrt_fingerprint128(buf, k * sizeof(*buf), out);
	return out[0];
}

/* Stores @n values (scalars: n = 1 and is_scalar) into attribute @i. */
static xrt_status *store(xrt_op *op, int i, const int64_t *vals, uint32_t n, bool is_list)
{
	struct attr_val *v = &op->attrs[i];
	int64_t *copy = NULL;

	if (n > EAGER_MAX_LIST)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: attribute '%s' has %u entries, at most %d", op->def->name,
				      op->def->attrs[i].name, n, EAGER_MAX_LIST);
	if (is_list && n) {
		copy = xrt_mem_alloc(op->c->a, n * sizeof(*copy));
		if (!copy)
			return xrt_status_oom(op->c->a, "an attribute");
		memcpy(copy, vals, n * sizeof(*copy));
	}
	eager_attr_clear(op->c->a, v);
	v->set = true;
	v->i = is_list ? 0 : vals[0];
	v->list = copy;
	v->n = is_list ? n : 0;
	v->hash = hash_of(i, vals, n, NULL);
	op->key_valid = false;
	return NULL;
}

static xrt_status *check_type(const xrt_op *op, int i, enum xrt_dtype t)
{
	const struct attr_def *ad = &op->def->attrs[i];

	if (!xrt_dtype_is_array(t))	/* the narrow types come after XRT_TUPLE */
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: attribute '%s': %d is not an element type", op->def->name,
				      ad->name, (int)t);
	if (ad->types && !(ad->types & (1u << t)))
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: attribute '%s' does not allow %s", op->def->name,
				      ad->name, xrt_dtype_name(t));
	return NULL;
}

xrt_status *xrt_op_set_attr_int(xrt_op *op, const char *attr, int64_t value)
{
	xrt_status *st;
	int i;

	st = find_attr(op, attr, XRT_ATTR_INT, false, &i);
	return st ? st : store(op, i, &value, 1, false);
}

xrt_status *xrt_op_set_attr_float(xrt_op *op, const char *attr, float value)
{
	int64_t bits = 0;
	xrt_status *st;
	int i;

	memcpy(&bits, &value, sizeof(value));
	st = find_attr(op, attr, XRT_ATTR_FLOAT, false, &i);
	return st ? st : store(op, i, &bits, 1, false);
}

xrt_status *xrt_op_set_attr_bool(xrt_op *op, const char *attr, bool value)
{
	int64_t v = value;
	xrt_status *st;
	int i;

	st = find_attr(op, attr, XRT_ATTR_BOOL, false, &i);
	return st ? st : store(op, i, &v, 1, false);
}

xrt_status *xrt_op_set_attr_type(xrt_op *op, const char *attr, enum xrt_dtype value)
{
	int64_t v = value;
	xrt_status *st;
	int i;

	st = find_attr(op, attr, XRT_ATTR_TYPE, false, &i);
	if (!st)
		st = check_type(op, i, value);
	return st ? st : store(op, i, &v, 1, false);
}

xrt_status *xrt_op_set_attr_string(xrt_op *op, const char *attr, const char *value)
{
	struct attr_val *v;
	xrt_status *st;
	char *copy;
	int i;

	st = find_attr(op, attr, XRT_ATTR_STRING, false, &i);
	if (st)
		return st;
	if (!value)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT, "%s: attribute '%s' is NULL",
				      op->def->name, attr);
	copy = xrt_mem_alloc(op->c->a, strlen(value) + 1);
	if (!copy)
		return xrt_status_oom(op->c->a, "an attribute");
	strcpy(copy, value);
	v = &op->attrs[i];
	eager_attr_clear(op->c->a, v);
	v->set = true;
	v->s = copy;
	v->hash = hash_of(i, NULL, 0, copy);
	op->key_valid = false;
	return NULL;
}

xrt_status *xrt_op_set_attr_shape(xrt_op *op, const char *attr, int32_t rank,
				  const int64_t *dims)
{
	int64_t unknown = -1;
	xrt_status *st;
	int i, d;

	st = find_attr(op, attr, XRT_ATTR_SHAPE, false, &i);
	if (st)
		return st;
	if (rank < -1 || rank > XRT_MAX_RANK || (rank > 0 && !dims))
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: attribute '%s': bad rank %d", op->def->name, attr, rank);
	for (d = 0; d < rank; d++) {
		if (dims[d] < -1)
			return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
					      "%s: attribute '%s': dimension %d is %lld",
					      op->def->name, attr, d, (long long)dims[d]);
	}
	st = store(op, i, rank < 0 ? &unknown : dims, rank < 0 ? 0 : (uint32_t)rank, true);
	if (!st)
		op->attrs[i].i = rank;
	return st;
}

xrt_status *xrt_op_set_attr_tensor(xrt_op *op, const char *attr, const xrt_literal *value)
{
	struct attr_val *v;
	xrt_literal *copy;
	xrt_status *st;
	uint64_t fp[2];
	int i;

	st = find_attr(op, attr, XRT_ATTR_TENSOR, false, &i);
	if (st)
		return st;
	if (!value || xrt_shape_is_tuple(xrt_literal_shape(value)))
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: attribute '%s' must be an array literal", op->def->name,
				      attr);
	st = xrt_literal_clone(op->c->a, value, &copy);
	if (st)
		return st;
	v = &op->attrs[i];
	eager_attr_clear(op->c->a, v);
	v->set = true;
	v->tensor = copy;
	xrt_fingerprint128(xrt_literal_data(copy), xrt_literal_size(copy), fp);
	fp[1] = xrt_literal_shape(copy)->dtype;
	v->hash = hash_of(i, (const int64_t *)fp, 2, NULL);
	op->key_valid = false;
	return NULL;
}

/* A list setter: @conv turns entry k of @values into an int64. */
#define LIST_SETTER(fn, ctype, atype, conv)                                    \
xrt_status *fn(xrt_op *op, const char *attr, const ctype *values, uint32_t n) \
{                                                                              \
	int64_t vals[EAGER_MAX_LIST];                                          \
	xrt_status *st;                                                        \
	uint32_t k;                                                            \
	int i;                                                                 \
									       \
	st = find_attr(op, attr, atype, true, &i);                             \
	if (st)                                                                \
		return st;                                                     \
	if (n > EAGER_MAX_LIST || (n && !values))                              \
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,          \
				      "%s: attribute '%s': %u entries at %p",  \
				      op->def->name, attr, n, (const void *)values); \
	for (k = 0; k < n; k++)                                                \
		conv;                                                          \
	return store(op, i, vals, n, true);                                    \
}

LIST_SETTER(xrt_op_set_attr_int_list, int64_t, XRT_ATTR_INT, vals[k] = values[k])
LIST_SETTER(xrt_op_set_attr_float_list, float, XRT_ATTR_FLOAT,
	    (vals[k] = 0, memcpy(&vals[k], &values[k], sizeof(float))))
LIST_SETTER(xrt_op_set_attr_bool_list, bool, XRT_ATTR_BOOL, vals[k] = values[k])

xrt_status *xrt_op_set_attr_type_list(xrt_op *op, const char *attr,
				      const enum xrt_dtype *values, uint32_t n)
{
	int64_t vals[EAGER_MAX_LIST];
	xrt_status *st;
	uint32_t k;
	int i;

	st = find_attr(op, attr, XRT_ATTR_TYPE, true, &i);
	if (st)
		return st;
	if (n > EAGER_MAX_LIST || (n && !values))
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: attribute '%s': %u entries", op->def->name, attr, n);
	for (k = 0; k < n; k++) {
		st = check_type(op, i, values[k]);
		if (st)
			return st;
		vals[k] = values[k];
	}
	return store(op, i, vals, n, true);
}

/*
 * Stores @n owned items (made by @copy from @values) as list attribute
 * @attr of @type; the hash covers each item's bytes from @bytes.
 */
static xrt_status *store_items(xrt_op *op, const char *attr, enum xrt_attr_type type,
			       uint32_t n, const void *values,
			       xrt_status *(*copy)(xrt_op *op, const void *values, uint32_t k,
						   void **item, uint64_t *hash))
{
	uint64_t hashes[EAGER_MAX_LIST];
	struct attr_val *v;
	void **items;
	xrt_status *st;
	uint32_t k;
	int i;

	st = find_attr(op, attr, type, true, &i);
	if (st)
		return st;
	if (n > EAGER_MAX_LIST || (n && !values))
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: attribute '%s': %u entries", op->def->name, attr, n);
	items = xrt_mem_calloc(op->c->a, n + 1, sizeof(*items));
	if (!items)
		return xrt_status_oom(op->c->a, "an attribute");
	for (k = 0; !st && k < n; k++)
		st = copy(op, values, k, &items[k], &hashes[k]);
	if (st) {
		struct attr_val tmp = { .items = items, .n = k, .items_type = type };

		eager_attr_clear(op->c->a, &tmp);
		return st;
	}
	v = &op->attrs[i];
	eager_attr_clear(op->c->a, v);
	v->set = true;
	v->items = items;
	v->n = n;
	v->items_type = type;
	v->hash = hash_of(i, (const int64_t *)hashes, n, NULL);
	op->key_valid = false;
	return NULL;
}

static xrt_status *copy_string(xrt_op *op, const void *values, uint32_t k, void **item,
			       uint64_t *hash)
{
	const char *s = ((const char *const *)values)[k];
	uint64_t fp[2];
	char *copy;

	if (!s)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT, "%s: list entry %u is NULL",
				      op->def->name, k);
	copy = xrt_mem_alloc(op->c->a, strlen(s) + 1);
	if (!copy)
		return xrt_status_oom(op->c->a, "an attribute");
	strcpy(copy, s);
	xrt_fingerprint128(s, strlen(s), fp);
	*item = copy;
	*hash = fp[0];
	return NULL;
}

xrt_status *xrt_op_set_attr_string_list(xrt_op *op, const char *attr,
					const char *const *values, uint32_t n)
{
	return store_items(op, attr, XRT_ATTR_STRING, n, values, copy_string);
}

/* Shapes come as parallel arrays: ranks[k] (-1: unknown) and dims[k]. */
struct shape_list {
	const int32_t *ranks;
	const int64_t *const *dims;
};

static xrt_status *copy_shape(xrt_op *op, const void *values, uint32_t k, void **item,
			      uint64_t *hash)
{
	const struct shape_list *sl = values;
	int32_t r = sl->ranks[k], d;
	uint64_t fp[2];
	int64_t *copy;

	if (r < -1 || r > XRT_MAX_RANK || (r > 0 && !sl->dims[k]))
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: shape %u: bad rank %d", op->def->name, k, r);
	copy = xrt_mem_alloc(op->c->a, (size_t)(r > 0 ? r + 1 : 1) * sizeof(int64_t));
	if (!copy)
		return xrt_status_oom(op->c->a, "an attribute");
	copy[0] = r;
	for (d = 0; d < r; d++) {
		if (sl->dims[k][d] < -1) {
			xrt_mem_free(op->c->a, copy);
			return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
					      "%s: shape %u: dimension %d is %lld", op->def->name,
					      k, d, (long long)sl->dims[k][d]);
		}
		copy[d + 1] = sl->dims[k][d];
	}
	xrt_fingerprint128(copy, (size_t)(r > 0 ? r + 1 : 1) * sizeof(int64_t), fp);
	*item = copy;
	*hash = fp[0];
	return NULL;
}

xrt_status *xrt_op_set_attr_shape_list(xrt_op *op, const char *attr, const int32_t *ranks,
				       const int64_t *const *dims, uint32_t n)
{
	struct shape_list sl = { ranks, dims };

	if (n && (!ranks || !dims))
		return xrt_status_new(op ? op->c->a : NULL, XRT_INVALID_ARGUMENT,
				      "attribute '%s': NULL shapes", attr ? attr : "?");
	return store_items(op, attr, XRT_ATTR_SHAPE, n, &sl, copy_shape);
}

static xrt_status *copy_tensor(xrt_op *op, const void *values, uint32_t k, void **item,
			       uint64_t *hash)
{
	const xrt_literal *lit = ((const xrt_literal *const *)values)[k];
	xrt_literal *copy;
	xrt_status *st;
	uint64_t fp[2];

	if (!lit || xrt_shape_is_tuple(xrt_literal_shape(lit)))
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: list entry %u must be an array literal", op->def->name, k);
	st = xrt_literal_clone(op->c->a, lit, &copy);
	if (st)
		return st;
	xrt_fingerprint128(xrt_literal_data(copy), xrt_literal_size(copy), fp);
	*item = copy;
	*hash = fp[0] ^ (uint64_t)xrt_literal_shape(copy)->dtype;
	return NULL;
}

xrt_status *xrt_op_set_attr_tensor_list(xrt_op *op, const char *attr,
					const xrt_literal *const *values, uint32_t n)
{
	return store_items(op, attr, XRT_ATTR_TENSOR, n, values, copy_tensor);
}

xrt_status *xrt_op_attr_type(const xrt_op *op, const char *attr, enum xrt_attr_type *type,
			     bool *is_list)
{
	int i;

	if (!op || !attr || !type || !is_list)
		return xrt_status_new(op ? op->c->a : NULL, XRT_INVALID_ARGUMENT,
				      "attribute type: NULL argument");
	i = eager_attr_index(op->def, attr);
	if (i < 0)
		return xrt_status_new(op->c->a, XRT_NOT_FOUND, "%s has no attribute '%.64s'",
				      op->def->name, attr);
	*type = op->def->attrs[i].type;
	*is_list = op->def->attrs[i].is_list;
	return NULL;
}

xrt_status *xrt_op_name_attr_type(xrt_eager_context *c, const char *op_name, const char *attr,
				  enum xrt_attr_type *type, bool *is_list)
{
	const struct op_def *d;
	int i;

	if (!c || !op_name || !attr || !type || !is_list)
		return xrt_status_new(c ? c->a : NULL, XRT_INVALID_ARGUMENT,
				      "attribute type: NULL argument");
	d = eager_find_op(op_name);
	if (!d)
		d = eager_find_function(c, op_name);
	if (!d)
		return xrt_status_new(c->a, XRT_NOT_FOUND, "no op or function named '%.64s'",
				      op_name);
	i = eager_attr_index(d, attr);
	if (i < 0)
		return xrt_status_new(c->a, XRT_NOT_FOUND, "%s has no attribute '%.64s'", d->name,
				      attr);
	*type = d->attrs[i].type;
	*is_list = d->attrs[i].is_list;
	return NULL;
}

/* Sets an unset type attribute from an input's element type. */
static xrt_status *infer_type(xrt_op *op, const char *type_attr, enum xrt_dtype t)
{
	int i;

	if (!type_attr)
		return NULL;
	i = eager_attr_index(op->def, type_attr);
	if (i < 0 || op->attrs[i].set)
		return NULL;
	return xrt_op_set_attr_type(op, type_attr, t);
}

/* Device numbers, pools and kernels are per context: no mixing. */
static xrt_status *foreign(const xrt_op *op)
{
	return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
			      "%s: the tensor belongs to another context", op->def->name);
}

/* What of an input the kernel depends on: type, shape, and a constant's value. */
static uint64_t input_hash(const xrt_tensor *t, bool constant)
{
	xrt_status *st = NULL;
	int64_t buf[XRT_MAX_RANK + 3];
	uint64_t out[2] = { 0, 0 };
	const void *values = NULL;

	if (constant)
		st = eager_tensor_host(t, &values);

	/* a copy that fails now fails again, with its error, when the kernel is built */
	xrt_status_free(st);
	if (values)
		xrt_fingerprint128(values, t->bytes, out);
	buf[0] = t->dtype;
	buf[1] = t->rank;
	buf[2] = (int64_t)out[0];
	memcpy(buf + 3, t->dims, t->rank * sizeof(int64_t));
	xrt_fingerprint128(buf, (t->rank + 3) * sizeof(int64_t), out);
	return out[0];
}

static void push_input(xrt_op *op, xrt_tensor *t, bool constant)
{
	op->input_hash[op->num_inputs] = input_hash(t, constant);
	op->input_constant[op->num_inputs] = constant;
	op->inputs[op->num_inputs++] = xrt_tensor_ref(t);
	op->key_valid = false;
}

void eager_op_rekey_input(xrt_op *op, uint32_t i, const xrt_tensor *as)
{
	uint64_t h = input_hash(as, false);

	if (h != op->input_hash[i]) {
		op->input_hash[i] = h;
		op->key_valid = false;
	}
}

xrt_status *xrt_op_set_input(xrt_op *op, uint32_t i, xrt_tensor *t)
{
	uint64_t h;

	if (!op || !t)
		return xrt_status_new(op ? op->c->a : NULL, XRT_INVALID_ARGUMENT,
				      "set input: %s is NULL", op ? "the tensor" : "the op");
	if (i >= op->num_inputs)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: set input #%u, but it has %u inputs", op->def->name, i,
				      op->num_inputs);
	if (t->c != op->c)
		return foreign(op);
	if (t->dtype != op->inputs[i]->dtype)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: input #%u is a %s tensor; a %s one needs xrt_op_reset()",
				      op->def->name, i, xrt_dtype_name(op->inputs[i]->dtype),
				      xrt_dtype_name(t->dtype));
	/* the same type and shape keep the kernel: the op stays unchanged */
	h = input_hash(t, op->input_constant[i]);
	if (h != op->input_hash[i] || t->device != op->inputs[i]->device) {
		op->input_hash[i] = h;
		op->key_valid = false;
	}
	xrt_tensor_ref(t);
	xrt_tensor_unref(op->inputs[i]);
	op->inputs[i] = t;
	return NULL;
}

static xrt_status *next_input(xrt_op *op, bool list, uint32_t n, const struct input_def **out)
{
	const struct input_def *in;

	if (op->next_def_input >= op->def->num_inputs)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s takes %u inputs; no more can be added", op->def->name,
				      op->def->num_inputs);
	in = &op->def->inputs[op->next_def_input];
	if (!!in->number_attr != list)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: input '%s' is %s", op->def->name, in->name,
				      list ? "one tensor, not a list" : "a list: add it as one");
	if (op->num_inputs + n > EAGER_MAX_INPUTS)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: more than %d inputs", op->def->name, EAGER_MAX_INPUTS);
	*out = in;
	return NULL;
}


xrt_status *xrt_op_add_input(xrt_op *op, xrt_tensor *t)
{
	const struct input_def *in;
	xrt_status *st;

	if (!op || !t)
		return xrt_status_new(op ? op->c->a : NULL, XRT_INVALID_ARGUMENT,
				      "add input: %s is NULL", op ? "the tensor" : "the op");
	if (t->c != op->c)
		return foreign(op);
	st = next_input(op, false, 1, &in);
	if (!st)
		st = infer_type(op, in->type_attr, t->dtype);
	if (st)
		return st;
	push_input(op, t, in->constant);
	op->next_def_input++;
	return NULL;
}

xrt_status *xrt_op_add_input_list(xrt_op *op, xrt_tensor *const *ts, uint32_t n)
{
	const struct input_def *in;
	xrt_status *st;
	uint32_t k;

	if (!op || (n && !ts))
		return xrt_status_new(op ? op->c->a : NULL, XRT_INVALID_ARGUMENT,
				      "add input list: %s is NULL", op ? "the list" : "the op");
	for (k = 0; k < n; k++) {
		if (!ts[k])
			return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
					      "%s: list entry %u is NULL", op->def->name, k);
		if (ts[k]->c != op->c)
			return foreign(op);
	}
	st = next_input(op, true, n, &in);
	if (!st)
		st = xrt_op_set_attr_int(op, in->number_attr, n);
	if (!st && n)
		st = infer_type(op, in->type_attr, ts[0]->dtype);
	if (st)
		return st;
	for (k = 0; k < n; k++)
		push_input(op, ts[k], in->constant);
	op->next_def_input++;
	return NULL;
}

const struct attr_val *eager_attr(const struct xrt_op *op, const char *name)
{
	int i = eager_attr_index(op->def, name);

	return i < 0 ? NULL : &op->attrs[i];
}

int64_t eager_attr_int(const struct xrt_op *op, const char *name)
{
	int i = eager_attr_index(op->def, name);

	if (i < 0)
		return 0;
	return op->attrs[i].set ? op->attrs[i].i : op->def->attrs[i].def;
}

static int64_t attr_at(const struct xrt_op *op, int i)
{
	return op->attrs[i].set ? op->attrs[i].i : op->def->attrs[i].def;
}

enum xrt_dtype eager_input_type(const struct xrt_op *op, uint32_t i)
{
	if (op->type_attr[i] < 0)
		return op->def->inputs[i].fixed;
	return (enum xrt_dtype)attr_at(op, op->type_attr[i]);
}

uint32_t eager_input_count(const struct xrt_op *op, uint32_t i)
{
	return op->number_attr[i] < 0 ? 1 : (uint32_t)attr_at(op, op->number_attr[i]);
}

void eager_op_key(xrt_op *op, uint32_t device)
{
	uint64_t buf[EAGER_MAX_ATTRS + EAGER_MAX_INPUTS + 2];
	uint32_t k = 0, i;

	buf[k++] = (uint64_t)(uintptr_t)op->def;
	buf[k++] = device;
	for (i = 0; i < op->def->num_attrs; i++)
		buf[k++] = op->attrs[i].set ? op->attrs[i].hash : 0;
	memcpy(buf + k, op->input_hash, op->num_inputs * sizeof(uint64_t));
	k += op->num_inputs;
	xrt_fingerprint128(buf, k * sizeof(uint64_t), op->key);
	op->key_device = device;
	op->key_valid = true;
}
