// SPDX-License-Identifier: MIT
/*
 * Modules: attribute tables, lookups, and freeing.
 */
#include <string.h>

#include "core/mem.h"
#include "ir/ir.h"

static const struct {
	const char *name;
	enum ir_attr_kind kind;
} attr_table[IR_ATTR_COUNT] = {
#define X(e, s, k) [IR_ATTR_##e] = { s, IR_##k },
	IR_ATTRS(X)
#undef X
};

const char *ir_attr_name(enum ir_attr_key key)
{
	return attr_table[key].name;
}

enum ir_attr_kind ir_attr_kind(enum ir_attr_key key)
{
	return attr_table[key].kind;
}

uint32_t ir_attr_ints_per(enum ir_attr_kind kind)
{
	switch (kind) {
	case IR_SLICE:
	case IR_PADDING:
		return 3;
	case IR_WINDOW:
		return IR_WINDOW_FIELDS;
	case IR_WORD:
	case IR_STRING:
		return 0;
	default:
		return 1;
	}
}

enum ir_attr_key ir_attr_from_name(const char *name, size_t len)
{
	int i;

	for (i = 0; i < IR_ATTR_COUNT; i++) {
		if (strlen(attr_table[i].name) == len &&
		    !memcmp(attr_table[i].name, name, len))
			return (enum ir_attr_key)i;
	}
	return IR_ATTR_COUNT;
}

const struct ir_attr *ir_instr_attr(const struct ir_instr *in,
				    enum ir_attr_key key)
{
	uint32_t i;

	for (i = 0; i < in->num_attrs; i++) {
		if (in->attrs[i].key == key)
			return &in->attrs[i];
	}
	return NULL;
}

static const char *const api_versions[] = {
	"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
	"API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI",
};

int ir_api_version(const char *word)
{
	int i;

	for (i = 0; i < (int)(sizeof(api_versions) / sizeof(api_versions[0])); i++)
		if (!strcmp(word, api_versions[i]))
			return i;
	return -1;
}

const char *ir_api_version_name(int v)
{
	return v >= 0 && v <= IR_API_VERSION_TYPED_FFI ? api_versions[v] : NULL;
}

bool ir_is_typed_ffi(const struct ir_instr *in)
{
	const struct ir_attr *v = ir_instr_attr(in, IR_ATTR_API_VERSION);

	return v && ir_api_version(v->str) == IR_API_VERSION_TYPED_FFI;
}

bool ir_has_side_effect(const struct ir_instr *in)
{
	const struct ir_attr *e = ir_instr_attr(in, IR_ATTR_CUSTOM_CALL_HAS_SIDE_EFFECT);

	return in->op == XRT_OP_CUSTOM_CALL && e && e->ints[0];
}

void ir_attr_release(const struct xrt_allocator *a, struct ir_attr *attr)
{
	xrt_mem_free(a, attr->ints);
	xrt_mem_free(a, attr->str);
	memset(attr, 0, sizeof(*attr));
}

void ir_instr_release(const struct xrt_allocator *a, struct ir_instr *in)
{
	uint32_t i;

	for (i = 0; i < in->num_attrs; i++)
		ir_attr_release(a, &in->attrs[i]);
	xrt_mem_free(a, in->attrs);
	xrt_mem_free(a, in->operands);
	xrt_mem_free(a, in->name);
	xrt_shape_deinit(&in->shape);
	xrt_literal_destroy(in->literal);
	memset(in, 0, sizeof(*in));
}

void ir_comp_release(const struct xrt_allocator *a, struct ir_comp *c)
{
	uint32_t i;

	for (i = 0; i < c->num_instrs; i++)
		ir_instr_release(a, &c->instrs[i]);
	xrt_mem_free(a, c->instrs);
	xrt_mem_free(a, c->name);
	memset(c, 0, sizeof(*c));
}

void xrt_module_destroy(xrt_module *m)
{
	uint32_t i;

	if (!m)
		return;
	for (i = 0; i < m->num_comps; i++)
		ir_comp_release(m->alloc, &m->comps[i]);
	xrt_mem_free(m->alloc, m->comps);
	xrt_mem_free(m->alloc, m->name);
	xrt_mem_free(m->alloc, atomic_load(&m->entry_params));
	xrt_mem_free(m->alloc, m);
}

const char *xrt_module_name(const xrt_module *m)
{
	return m->name;
}

uint32_t xrt_module_num_computations(const xrt_module *m)
{
	return m->num_comps;
}

uint32_t xrt_module_num_replicas(const xrt_module *m)
{
	return m->replica_count ? m->replica_count : 1;
}

uint32_t xrt_module_num_partitions(const xrt_module *m)
{
	return m->num_partitions ? m->num_partitions : 1;
}

uint32_t xrt_module_num_params(const xrt_module *m)
{
	return m->comps[m->entry].num_params;
}

xrt_status *ir_comp_check_params(const struct xrt_allocator *a, const struct ir_comp *c)
{
	xrt_status *st = NULL;
	uint8_t *seen;
	uint32_t k;

	if (!c->num_params)
		return NULL;
	seen = xrt_mem_calloc(a, c->num_params, 1);
	if (!seen)
		return xrt_status_oom(a, "the parameter check");
	for (k = 0; k < c->num_instrs && !st; k++) {
		const struct ir_instr *in = &c->instrs[k];

		if (in->op != XRT_OP_PARAMETER)
			continue;
		if (in->parameter < 0 || in->parameter >= c->num_params)
			st = xrt_status_new(a, XRT_INVALID_ARGUMENT,
					    "computation '%s': parameter(%lld) '%s', but it has %u parameters (numbered from 0)",
					    c->name, (long long)in->parameter, in->name,
					    c->num_params);
		else if (seen[in->parameter]++)
			st = xrt_status_new(a, XRT_INVALID_ARGUMENT,
					    "computation '%s': parameter(%lld) twice ('%s')",
					    c->name, (long long)in->parameter, in->name);
	}
	xrt_mem_free(a, seen);
	return st;
}

/* The entry's parameter instructions by number, made once; NULL out of memory. */
static const uint32_t *entry_params(xrt_module *m)
{
	const struct ir_comp *c = &m->comps[m->entry];
	uint32_t *p = atomic_load_explicit(&m->entry_params, memory_order_acquire), *none = NULL;
	uint32_t k;

	if (p)
		return p;
	p = xrt_mem_calloc(m->alloc, c->num_params + 1, sizeof(*p));
	if (!p)
		return NULL;
	for (k = 0; k < c->num_params; k++)
		p[k] = UINT32_MAX;
	for (k = 0; k < c->num_instrs; k++) {
		const struct ir_instr *in = &c->instrs[k];

		if (in->op == XRT_OP_PARAMETER && in->parameter >= 0 &&
		    in->parameter < c->num_params)
			p[in->parameter] = k;
	}
	if (!atomic_compare_exchange_strong_explicit(&m->entry_params, &none, p,
						     memory_order_acq_rel, memory_order_acquire)) {
		xrt_mem_free(m->alloc, p);
		p = none;
	}
	return p;
}

/*
 * O(1) after the first call, which is O(instructions): callers asking
 * for each parameter in turn stay linear in the module.
 */
const struct xrt_shape *xrt_module_param_shape(const xrt_module *m, uint32_t i)
{
	const struct ir_comp *c = &m->comps[m->entry];
	const uint32_t *p;
	uint32_t k;

	if (i >= c->num_params)
		return NULL;
	/* the cache is not the module's value: made through a cast */
	p = entry_params((xrt_module *)m);
	if (p)
		return p[i] == UINT32_MAX ? NULL : &c->instrs[p[i]].shape;
	for (k = 0; k < c->num_instrs; k++) {	/* out of memory: look */
		if (c->instrs[k].op == XRT_OP_PARAMETER && c->instrs[k].parameter == i)
			return &c->instrs[k].shape;
	}
	return NULL;
}

const struct xrt_shape *xrt_module_result_shape(const xrt_module *m)
{
	const struct ir_comp *c = &m->comps[m->entry];

	return &c->instrs[c->root].shape;
}

xrt_status *ir_module_check_single(const xrt_module *m, const struct xrt_allocator *a,
				   const char *who)
{
	if (m->replica_count <= 1 && m->num_partitions <= 1)
		return NULL;
	return xrt_status_new(a, XRT_UNIMPLEMENTED,
			      "%s: module '%s' states replica_count=%u and num_partitions=%u: "
			      "one replica of one partition is all that runs for now",
			      who, m->name, m->replica_count ? m->replica_count : 1,
			      m->num_partitions ? m->num_partitions : 1);
}

int64_t ir_groups_count(const int64_t *ints, uint32_t n)
{
	const int64_t max_id = (int64_t)IR_MAX_REPLICAS * IR_MAX_REPLICAS;
	int64_t groups = 0;
	uint32_t i = 0, k;

	if (n > IR_MAX_GROUP_INTS)
		return -1;
	while (i < n) {
		int64_t len = ints[i++];

		if (len < 0 || len > n - i)
			return -1;
		for (k = 0; k < len; k++, i++)
			if (ints[i] < 0 || ints[i] >= max_id)
				return -1;
		groups++;
	}
	return groups;
}

bool ir_operand_layout(const struct ir_instr *in, uint32_t k, uint8_t *m2m)
{
	const struct ir_attr *a = ir_instr_attr(in, IR_ATTR_OPERAND_LAYOUT_CONSTRAINTS);
	uint32_t i = 0, j, d;

	for (j = 0; a && i < a->n; j++) {
		uint32_t r = (uint32_t)a->ints[i++];

		if (j == k) {
			for (d = 0; d < r && d < XRT_MAX_RANK; d++)
				m2m[d] = (uint8_t)a->ints[i + d];
			return true;
		}
		i += r;
	}
	return false;
}
