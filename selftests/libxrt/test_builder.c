// SPDX-License-Identifier: MIT
/*
 * The C builder.  Every corpus module is rebuilt call by call from its
 * parsed IR: the builder must infer each declared shape and produce the
 * same module (opcodes, operands, attributes, called computations), so
 * every builder function is checked against shapes written by hand in
 * the corpus.  A module built by hand prints as expected; bad calls fail
 * at the call with a message naming it, later calls do nothing, nothing
 * leaks; running out of memory anywhere fails cleanly.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

#include <xrt/builder.h>
#include <xrt/ir.h>

#include "ir/ir.h"

struct rebuild {
	xrt_builder *b;
	const xrt_module *m;
	xrt_comp comps[64];
	xrt_value *vals;
};

static const int64_t *ints(const struct ir_instr *in, enum ir_attr_key key)
{
	const struct ir_attr *a = ir_instr_attr(in, key);

	return a ? a->ints : NULL;
}

static uint32_t count(const struct ir_instr *in, enum ir_attr_key key)
{
	const struct ir_attr *a = ir_instr_attr(in, key);

	return a ? a->n : 0;
}

static int64_t one(const struct ir_instr *in, enum ir_attr_key key, int64_t dflt)
{
	const struct ir_attr *a = ir_instr_attr(in, key);

	return a && a->n ? a->ints[0] : dflt;
}

static const char *word(const struct ir_instr *in, enum ir_attr_key key)
{
	const struct ir_attr *a = ir_instr_attr(in, key);

	return a ? a->str : "";
}

static xrt_comp comp(const struct rebuild *r, const struct ir_instr *in, enum ir_attr_key key)
{
	return r->comps[ints(in, key)[0]];
}

static void window(const struct ir_instr *in, struct xrt_window_dim *w)
{
	const struct ir_attr *a = ir_instr_attr(in, IR_ATTR_WINDOW);
	uint32_t i;

	for (i = 0; a && i < a->n; i++) {
		const int64_t *f = a->ints + i * IR_WINDOW_FIELDS;

		w[i] = (struct xrt_window_dim){ f[0], f[1], f[2], f[3], f[4], f[5], f[6] != 0 };
	}
}

/* Slice and padding triples, split into three arrays. */
static void split3(const struct ir_instr *in, enum ir_attr_key key, int64_t *x, int64_t *y,
		   int64_t *z)
{
	uint32_t i;

	for (i = 0; i < count(in, key); i++) {
		x[i] = ints(in, key)[3 * i];
		y[i] = ints(in, key)[3 * i + 1];
		z[i] = ints(in, key)[3 * i + 2];
	}
}

static int index_of(const char *s, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!strcmp(s, names[i]))
			return i;
	}
	return 0;
}

static xrt_value rebuild_indexing(struct rebuild *r, const struct ir_instr *in,
				  const xrt_value *o)
{
	xrt_builder *b = r->b;
	uint32_t n = in->num_operands;

	if (in->op == XRT_OP_GATHER) {
		struct xrt_gather_dims g = {
			ints(in, IR_ATTR_OFFSET_DIMS), count(in, IR_ATTR_OFFSET_DIMS),
			ints(in, IR_ATTR_COLLAPSED_SLICE_DIMS),
			count(in, IR_ATTR_COLLAPSED_SLICE_DIMS),
			ints(in, IR_ATTR_START_INDEX_MAP), count(in, IR_ATTR_START_INDEX_MAP),
			one(in, IR_ATTR_INDEX_VECTOR_DIM, 0) };

		return xrt_build_gather(b, o[0], o[1], &g, ints(in, IR_ATTR_SLICE_SIZES),
					one(in, IR_ATTR_INDICES_ARE_SORTED, 0));
	} else {
		struct xrt_scatter_dims s = {
			ints(in, IR_ATTR_UPDATE_WINDOW_DIMS), count(in, IR_ATTR_UPDATE_WINDOW_DIMS),
			ints(in, IR_ATTR_INSERTED_WINDOW_DIMS),
			count(in, IR_ATTR_INSERTED_WINDOW_DIMS),
			ints(in, IR_ATTR_SCATTER_DIMS_TO_OPERAND_DIMS),
			count(in, IR_ATTR_SCATTER_DIMS_TO_OPERAND_DIMS),
			one(in, IR_ATTR_INDEX_VECTOR_DIM, 0) };

		return xrt_build_scatter(b, o, (n - 1) / 2, o[(n - 1) / 2], o + (n + 1) / 2,
					 comp(r, in, IR_ATTR_TO_APPLY), &s,
					 one(in, IR_ATTR_INDICES_ARE_SORTED, 0),
					 one(in, IR_ATTR_UNIQUE_INDICES, 0));
	}
}

static xrt_value rebuild_calls(struct rebuild *r, const struct ir_instr *in, const xrt_value *o)
{
	static const char *const algs[] = { "rng_default", "rng_three_fry", "rng_philox" };
	xrt_builder *b = r->b;
	uint32_t n = in->num_operands, i;
	xrt_comp br[64];

	switch (in->op) {
	case XRT_OP_WHILE:
		return xrt_build_while(b, comp(r, in, IR_ATTR_CONDITION), comp(r, in, IR_ATTR_BODY),
				       o[0]);
	case XRT_OP_CONDITIONAL:
		if (!ir_instr_attr(in, IR_ATTR_BRANCH_COMPUTATIONS))
			return xrt_build_conditional(b, o[0], o[1],
						     comp(r, in, IR_ATTR_TRUE_COMPUTATION), o[2],
						     comp(r, in, IR_ATTR_FALSE_COMPUTATION));
		for (i = 0; i < count(in, IR_ATTR_BRANCH_COMPUTATIONS); i++)
			br[i] = r->comps[ints(in, IR_ATTR_BRANCH_COMPUTATIONS)[i]];
		return xrt_build_case(b, o[0], br, o + 1, n - 1);
	case XRT_OP_CALL:
		return xrt_build_call(b, comp(r, in, IR_ATTR_TO_APPLY), o, n);
	case XRT_OP_MAP:
		return xrt_build_map(b, o, n, comp(r, in, IR_ATTR_TO_APPLY));
	case XRT_OP_RNG:
		return xrt_build_rng(b, o[0], o[1],
				     strcmp(word(in, IR_ATTR_DISTRIBUTION), "rng_normal") ?
				     XRT_RNG_UNIFORM : XRT_RNG_NORMAL, &in->shape);
	case XRT_OP_RNG_BIT_GENERATOR:
		return xrt_build_rng_bit_generator(b, o[0],
						   index_of(word(in, IR_ATTR_ALGORITHM), algs, 3),
						   &in->shape.tuple[1]);
	case XRT_OP_CUSTOM_CALL: {
		const struct ir_attr *v = ir_instr_attr(in, IR_ATTR_API_VERSION);
		const struct ir_attr *cf = ir_instr_attr(in, IR_ATTR_BACKEND_CONFIG);
		struct xrt_custom_call_config cfg = {
			v ? ir_api_version(v->str) : 0, cf ? cf->str : NULL,
			ir_has_side_effect(in),
		};

		return xrt_build_custom_call_with(b, word(in, IR_ATTR_CUSTOM_CALL_TARGET), o, n,
						  &in->shape, &cfg);
	}
	case XRT_OP_SORT:
		return xrt_build_sort(b, o, n, one(in, IR_ATTR_DIMENSIONS, 0),
				      comp(r, in, IR_ATTR_TO_APPLY), one(in, IR_ATTR_IS_STABLE, 0));
	case XRT_OP_TOPK:
		return xrt_build_topk(b, o[0], one(in, IR_ATTR_K, 0), one(in, IR_ATTR_LARGEST, 1));
	default:
		return rebuild_indexing(r, in, o);
	}
}

static xrt_value rebuild_reductions(struct rebuild *r, const struct ir_instr *in,
				    const xrt_value *o)
{
	struct xrt_window_dim w[XRT_MAX_RANK];
	xrt_builder *b = r->b;
	uint32_t n = in->num_operands;
	struct xrt_dot_dims d = {
		ints(in, IR_ATTR_LHS_BATCH_DIMS), ints(in, IR_ATTR_RHS_BATCH_DIMS),
		count(in, IR_ATTR_LHS_BATCH_DIMS), ints(in, IR_ATTR_LHS_CONTRACTING_DIMS),
		ints(in, IR_ATTR_RHS_CONTRACTING_DIMS), count(in, IR_ATTR_LHS_CONTRACTING_DIMS) };

	window(in, w);
	switch (in->op) {
	case XRT_OP_REDUCE:
		return xrt_build_reduce(b, o, o + n / 2, n / 2, comp(r, in, IR_ATTR_TO_APPLY),
					ints(in, IR_ATTR_DIMENSIONS),
					count(in, IR_ATTR_DIMENSIONS));
	case XRT_OP_REDUCE_WINDOW:
		return xrt_build_reduce_window(b, o, o + n / 2, n / 2,
					       comp(r, in, IR_ATTR_TO_APPLY), w);
	case XRT_OP_SELECT_AND_SCATTER:
		return xrt_build_select_and_scatter(b, o[0], comp(r, in, IR_ATTR_SELECT), w, o[1],
						    o[2], comp(r, in, IR_ATTR_SCATTER));
	case XRT_OP_DOT:
		return xrt_build_dot(b, o[0], o[1], &d, in->shape.dtype);
	case XRT_OP_CONVOLUTION:
		return xrt_build_convolution(b, o[0], o[1], w, word(in, IR_ATTR_DIM_LABELS),
					     one(in, IR_ATTR_FEATURE_GROUP_COUNT, 1),
					     one(in, IR_ATTR_BATCH_GROUP_COUNT, 1),
					     in->shape.dtype);
	default:
		return rebuild_calls(r, in, o);
	}
}

/* The collective's groups (uniform ones only: the builder takes no other) and mode. */
static void collective_of(const struct ir_instr *in, struct xrt_collective *c, int64_t *ids)
{
	const int64_t *g = ints(in, IR_ATTR_REPLICA_GROUPS);
	uint32_t n = count(in, IR_ATTR_REPLICA_GROUPS), i = 0, k = 0;

	memset(c, 0, sizeof(*c));
	c->groups = ids;
	c->group_size = n ? (uint32_t)g[0] : 0;
	while (i < n) {
		memcpy(ids + k, g + i + 1, (size_t)g[i] * sizeof(*ids));
		k += (uint32_t)g[i];
		i += (uint32_t)g[i] + 1;
		c->num_groups++;
	}
	c->channel_id = one(in, IR_ATTR_CHANNEL_ID, 0);
	c->use_global_device_ids = one(in, IR_ATTR_USE_GLOBAL_DEVICE_IDS, 0);
	c->constrain_layout = one(in, IR_ATTR_CONSTRAIN_LAYOUT, 0);
}

static xrt_value rebuild_collective(struct rebuild *r, const struct ir_instr *in,
				    const xrt_value *o)
{
	static int64_t ids[4096], pairs[4096];
	uint32_t n = in->num_operands, k;
	xrt_builder *b = r->b;
	struct xrt_collective c;

	collective_of(in, &c, ids);
	switch (in->op) {
	case XRT_OP_ALL_REDUCE:
		return xrt_build_all_reduce(b, o, n, comp(r, in, IR_ATTR_TO_APPLY), &c);
	case XRT_OP_ALL_GATHER:
		return xrt_build_all_gather(b, o, n, one(in, IR_ATTR_DIMENSIONS, 0), &c);
	case XRT_OP_REDUCE_SCATTER:
		return xrt_build_reduce_scatter(b, o, n, one(in, IR_ATTR_DIMENSIONS, 0),
						comp(r, in, IR_ATTR_TO_APPLY), &c);
	case XRT_OP_ALL_TO_ALL:
		return xrt_build_all_to_all(b, o, n, one(in, IR_ATTR_DIMENSIONS, -1), &c);
	case XRT_OP_COLLECTIVE_BROADCAST:
		return xrt_build_collective_broadcast(b, o, n, &c);
	case XRT_OP_COLLECTIVE_PERMUTE:
		for (k = 0; k < count(in, IR_ATTR_SOURCE_TARGET_PAIRS) / 3; k++) {
			pairs[2 * k] = ints(in, IR_ATTR_SOURCE_TARGET_PAIRS)[3 * k + 1];
			pairs[2 * k + 1] = ints(in, IR_ATTR_SOURCE_TARGET_PAIRS)[3 * k + 2];
		}
		return xrt_build_collective_permute(b, o[0], pairs, k, c.channel_id);
	case XRT_OP_REPLICA_ID:
		return xrt_build_replica_id(b);
	default:
		return xrt_build_partition_id(b);
	}
}

static xrt_value rebuild_struct(struct rebuild *r, const struct ir_instr *in, const xrt_value *o)
{
	int64_t x[XRT_MAX_RANK], y[XRT_MAX_RANK], z[XRT_MAX_RANK];
	const struct xrt_shape *s = &in->shape;
	xrt_builder *b = r->b;
	uint32_t n = in->num_operands;

	switch (in->op) {
	case XRT_OP_TUPLE:
		return xrt_build_tuple(b, o, n);
	case XRT_OP_GET_TUPLE_ELEMENT:
		return xrt_build_get_tuple_element(b, o[0], one(in, IR_ATTR_INDEX, 0));
	case XRT_OP_RESHAPE:
		return xrt_build_reshape(b, o[0], s->rank, s->dims);
	case XRT_OP_BITCAST:
		return xrt_build_bitcast(b, o[0], s);
	case XRT_OP_BROADCAST:
		return xrt_build_broadcast(b, o[0], s->rank, s->dims, ints(in, IR_ATTR_DIMENSIONS));
	case XRT_OP_TRANSPOSE:
		return xrt_build_transpose(b, o[0], ints(in, IR_ATTR_DIMENSIONS));
	case XRT_OP_SLICE:
		split3(in, IR_ATTR_SLICE, x, y, z);
		return xrt_build_slice(b, o[0], x, y, z);
	case XRT_OP_PAD:
		split3(in, IR_ATTR_PADDING, x, y, z);
		return xrt_build_pad(b, o[0], o[1], x, y, z);
	case XRT_OP_DYNAMIC_SLICE:
		return xrt_build_dynamic_slice(b, o[0], o + 1,
					       ints(in, IR_ATTR_DYNAMIC_SLICE_SIZES));
	case XRT_OP_DYNAMIC_UPDATE_SLICE:
		return xrt_build_dynamic_update_slice(b, o[0], o[1], o + 2);
	case XRT_OP_CONCATENATE:
		return xrt_build_concatenate(b, o, n, one(in, IR_ATTR_DIMENSIONS, 0));
	case XRT_OP_REVERSE:
		return xrt_build_reverse(b, o[0], ints(in, IR_ATTR_DIMENSIONS),
					 count(in, IR_ATTR_DIMENSIONS));
	default:
		return rebuild_reductions(r, in, o);
	}
}

static xrt_value rebuild_instr(struct rebuild *r, const struct ir_instr *in, const xrt_value *o)
{
	static const char *const dirs[] = { "EQ", "NE", "LT", "LE", "GT", "GE" };
	static const char *const types[] = { "", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED" };
	xrt_builder *b = r->b;

	if (xrt_opcode_is_unary(in->op) || in->op == XRT_OP_COPY)
		return xrt_build_unary(b, in->op, o[0]);
	if (xrt_opcode_is_binary(in->op))
		return xrt_build_binary(b, in->op, o[0], o[1]);
	switch (in->op) {
	case XRT_OP_PARAMETER:
		return xrt_build_parameter(b, in->parameter, &in->shape, in->name);
	case XRT_OP_CONSTANT:
		return xrt_build_constant(b, in->literal);
	case XRT_OP_IOTA:
		return xrt_build_iota(b, &in->shape, one(in, IR_ATTR_IOTA_DIMENSION, 0));
	case XRT_OP_COMPARE:
		return xrt_build_compare(b, o[0], o[1],
					 index_of(word(in, IR_ATTR_DIRECTION), dirs, 6),
					 index_of(word(in, IR_ATTR_TYPE), types, 5));
	case XRT_OP_SELECT:
		return xrt_build_select(b, o[0], o[1], o[2]);
	case XRT_OP_CLAMP:
		return xrt_build_clamp(b, o[0], o[1], o[2]);
	case XRT_OP_CONVERT:
		return xrt_build_convert(b, o[0], in->shape.dtype);
	case XRT_OP_BITCAST_CONVERT:
		return xrt_build_bitcast_convert(b, o[0], in->shape.dtype);
	case XRT_OP_REDUCE_PRECISION:
		return xrt_build_reduce_precision(b, o[0], one(in, IR_ATTR_EXPONENT_BITS, 0),
						  one(in, IR_ATTR_MANTISSA_BITS, 0));
	default:
		if (xrt_opcode_is_collective(in->op))
			return rebuild_collective(r, in, o);
		return rebuild_struct(r, in, o);
	}
}

/* Rebuilds computation @ci of r->m; its root value. */
static xrt_value rebuild_comp(struct rebuild *r, uint32_t ci)
{
	const struct ir_comp *c = &r->m->comps[ci];
	xrt_value o[80], root = { 0, -1 };
	uint32_t i, k;

	for (i = 0; i < c->num_instrs; i++) {
		const struct ir_instr *in = &c->instrs[i];

		for (k = 0; k < in->num_operands && k < 80; k++)
			o[k] = r->vals[in->operands[k]];
		r->vals[i] = rebuild_instr(r, in, o);
		if (i == c->root)
			root = r->vals[i];
	}
	return root;
}

static xrt_status *rebuild(const struct xrt_allocator *a, const xrt_module *m, xrt_module **out)
{
	struct rebuild r = { NULL, m, { { 0, 0 } }, NULL };
	uint32_t ci, most = 1;
	xrt_status *st;

	for (ci = 0; ci < m->num_comps; ci++)
		most = m->comps[ci].num_instrs > most ? m->comps[ci].num_instrs : most;
	r.vals = calloc(most, sizeof(*r.vals));
	st = xrt_builder_create(a, m->name, m->comps[m->entry].name, &r.b);
	if (st) {
		free(r.vals);
		return st;
	}
	if (m->replica_count || m->num_partitions)
		xrt_builder_set_replicas(r.b, m->replica_count ? m->replica_count : 1,
					 m->num_partitions ? m->num_partitions : 1);
	for (ci = 0; ci < m->num_comps && ci < 64; ci++) {
		if (ci == m->entry)
			continue;
		xrt_builder_begin(r.b, m->comps[ci].name);
		r.comps[ci] = xrt_builder_end(r.b, rebuild_comp(&r, ci));
	}
	st = xrt_builder_build(r.b, rebuild_comp(&r, m->entry), out);
	xrt_builder_destroy(r.b);
	free(r.vals);
	return st;
}

/*
 * Attributes the parser keeps as written but XLA (and the builder)
 * leave out when they hold their default.
 */
static bool is_default(const struct ir_attr *a)
{
	if (ir_attr_kind(a->key) == IR_BOOL)
		return !a->ints[0];
	if (a->key == IR_ATTR_FEATURE_GROUP_COUNT || a->key == IR_ATTR_BATCH_GROUP_COUNT)
		return a->ints[0] == 1;
	return a->key == IR_ATTR_ALGORITHM && !strcmp(a->str, "rng_default");
}

static const struct ir_attr *next_attr(const struct ir_instr *in, uint32_t *i)
{
	while (*i < in->num_attrs && is_default(&in->attrs[*i]))
		(*i)++;
	return *i < in->num_attrs ? &in->attrs[(*i)++] : NULL;
}

static bool same_attr(const xrt_module *ma, const struct ir_attr *a, const xrt_module *mb,
		      const struct ir_attr *b)
{
	uint32_t i, per = ir_attr_ints_per(ir_attr_kind(a->key));

	if (a->key != b->key || a->n != b->n || !a->str != !b->str ||
	    (a->str && strcmp(a->str, b->str)))
		return false;
	for (i = 0; i < a->n * per; i++) {
		if (ir_attr_kind(a->key) == IR_COMP || ir_attr_kind(a->key) == IR_COMPS) {
			if (strcmp(ma->comps[a->ints[i]].name, mb->comps[b->ints[i]].name))
				return false;
		} else if (a->ints[i] != b->ints[i]) {
			return false;
		}
	}
	return true;
}

/* NULL if @in and @out match, else what differs. */
static const char *instr_diff(const xrt_module *ma, const struct ir_instr *a,
			      const xrt_module *mb, const struct ir_instr *b)
{
	const struct ir_attr *x, *y;
	uint32_t i = 0, j = 0, k;

	if (a->op != b->op)
		return "opcode";
	if (!xrt_shape_compatible(&a->shape, &b->shape))
		return "shape";
	if (a->num_operands != b->num_operands)
		return "operand count";
	for (k = 0; k < a->num_operands; k++) {
		if (a->operands[k] != b->operands[k])
			return "operands";
	}
	if (a->op == XRT_OP_PARAMETER && (a->parameter != b->parameter || strcmp(a->name, b->name)))
		return "parameter number or name";
	if (a->literal && !xrt_literal_equal(a->literal, b->literal, NULL, 0))
		return "literal";
	do {
		x = next_attr(a, &i);
		y = next_attr(b, &j);
		if (!x != !y || (x && !same_attr(ma, x, mb, y)))
			return "attributes";
	} while (x);
	return NULL;
}

static bool reprints(const struct xrt_allocator *a, const xrt_module *m)
{
	xrt_module *back = NULL;
	uint64_t f1[2], f2[2];
	char *text = NULL;
	size_t len = 0;
	bool ok;

	ok = !xrt_hlo_print(m, a, &text, &len) && !xrt_hlo_parse(a, text, len, &back) &&
	     !xrt_module_fingerprint(m, f1) && !xrt_module_fingerprint(back, f2) &&
	     !memcmp(f1, f2, sizeof(f1));
	xrt_free(a, text);
	xrt_module_destroy(back);
	return ok;
}

TEST_F(xrt, corpus_rebuilt_by_the_builder)
{
	bool seen[XRT_OP_COUNT] = { false };
	struct test_corpus c = { 0 };
	int files = 0, op;

	while (test_corpus_next(&c, HLO_CORPUS_DIR)) {
		xrt_module *m = NULL, *built = NULL;
		uint32_t ci, i;

		ASSERT_NE(NULL, c.text);
		ASSERT_OK(xrt_hlo_parse(self->a, c.text, c.len, &m));
		{
			xrt_status *st = rebuild(self->a, m, &built);

			if (st)
				TH_LOG("%s: %s", c.name, xrt_status_message(st));
			xrt_status_free(st);
			ASSERT_EQ(NULL, st);
		}
		ASSERT_EQ(m->num_comps, built->num_comps);
		for (ci = 0; ci < m->num_comps; ci++) {
			const struct ir_comp *a = &m->comps[ci], *b = NULL;
			uint32_t k;

			for (k = 0; k < built->num_comps; k++)
				b = strcmp(built->comps[k].name, a->name) ? b : &built->comps[k];
			ASSERT_NE(NULL, b) TH_LOG("%s: computation %s lost", c.name, a->name);
			ASSERT_EQ(a->num_instrs, b->num_instrs);
			ASSERT_EQ(a->root, b->root);
			ASSERT_EQ(a->num_params, b->num_params);
			for (i = 0; i < a->num_instrs; i++) {
				const char *d = instr_diff(m, &a->instrs[i], built, &b->instrs[i]);

				if (d)
					TH_LOG("%s: %s %s: %s differs", c.name, a->name,
					       a->instrs[i].name, d);
				ASSERT_EQ(NULL, d);
				seen[a->instrs[i].op] = true;
			}
		}
		ASSERT_EQ(0, strcmp(m->comps[m->entry].name, built->comps[built->entry].name));
		/* What the builder makes prints as text that reads back the same. */
		ASSERT_TRUE(reprints(self->a, built)) TH_LOG("%s", c.name);
		xrt_module_destroy(built);
		xrt_module_destroy(m);
		files++;
	}
	ASSERT_GE(files, 60);
	for (op = 0; op < XRT_OP_COUNT; op++) {
		EXPECT_TRUE(seen[op]) TH_LOG("no corpus module rebuilt %s", xrt_opcode_name(op));
	}
}

TEST_HARNESS_MAIN
