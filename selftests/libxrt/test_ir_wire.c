// SPDX-License-Identifier: MIT
/*
 * Modules as xrt.IrModule messages: every corpus module survives
 * serialize -> deserialize unchanged (same HLO text, same bytes, same
 * fingerprint); fingerprints tell modules apart and do not drift;
 * malformed messages are each rejected with their own message; running
 * out of memory anywhere fails cleanly.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

#include <xrt/ir.h>
#include <xrt/wire.h>

#include "xrt.pb-c.h"

#define FP_SMALL_0 0x63e095a1ba1c3a2bull
#define FP_SMALL_1 0x9fc22c0dfccdb16full

/* libxrt's internal hash (core/fingerprint.h), checked on its own. */
void xrt_fingerprint128(const void *data, size_t len, uint64_t out[2]);

static const char small[] =
	"HloModule small\n"
	"add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
	"  ROOT s = f32[] add(a, b)\n}\n"
	"ENTRY main {\n  p = f32[4]{0} parameter(0)\n  c = f32[] constant(0)\n"
	"  ROOT r = f32[] reduce(p, c), dimensions={0}, to_apply=add\n}\n";

static xrt_status *text_to_bytes(const struct xrt_allocator *a, const char *text,
				 void **bytes, size_t *n)
{
	xrt_module *m;
	xrt_status *st = xrt_hlo_parse(a, text, strlen(text), &m);

	if (st)
		return st;
	st = xrt_module_serialize(m, a, bytes, n);
	xrt_module_destroy(m);
	return st;
}

TEST_F(xrt, corpus_survives_the_wire)
{
	struct test_corpus c = { 0 };
	int files = 0;

	while (test_corpus_next(&c, HLO_CORPUS_DIR)) {
		char *t1, *t2;
		void *b1, *b2;
		size_t n1, n2, s1, s2;
		uint64_t f1[2], f2[2];
		xrt_module *m1, *m2;

		ASSERT_NE(NULL, c.text) TH_LOG("%s", c.name);
		TH_LOG("%s", c.name);
		ASSERT_OK(xrt_hlo_parse(self->a, c.text, c.len, &m1));
		ASSERT_OK(xrt_module_serialize(m1, self->a, &b1, &s1));
		ASSERT_OK(xrt_module_deserialize(self->a, b1, s1, &m2));
		ASSERT_OK(xrt_module_verify(m2));
		ASSERT_OK(xrt_hlo_print(m1, self->a, &t1, &n1));
		ASSERT_OK(xrt_hlo_print(m2, self->a, &t2, &n2));
		EXPECT_STREQ(t1, t2);
		ASSERT_OK(xrt_module_serialize(m2, self->a, &b2, &s2));
		ASSERT_EQ(s1, s2);
		EXPECT_EQ(0, memcmp(b1, b2, s1));
		ASSERT_OK(xrt_module_fingerprint(m1, f1));
		ASSERT_OK(xrt_module_fingerprint(m2, f2));
		EXPECT_EQ(f1[0], f2[0]);
		EXPECT_EQ(f1[1], f2[1]);
		xrt_free(self->a, t1);
		xrt_free(self->a, t2);
		xrt_free(self->a, b1);
		xrt_free(self->a, b2);
		xrt_module_destroy(m1);
		xrt_module_destroy(m2);
		files++;
	}
	ASSERT_GE(files, 70);
}

TEST_F(xrt, hash_matches_published_murmur3_vectors)
{
	/* MurmurHash3_x64_128, seed 0: the digest's bytes are h1 then h2, little-endian. */
	static const char fox[] = "The quick brown fox jumps over the lazy dog";
	uint64_t h[2];

	xrt_fingerprint128("", 0, h);
	EXPECT_EQ(0, h[0]);
	EXPECT_EQ(0, h[1]);
	xrt_fingerprint128(fox, sizeof(fox) - 1, h);	/* 6c1b07bc7bbc4be3 47939ac4a93c437a */
	EXPECT_EQ(0xe34bbc7bbc071b6cull, h[0]);
	EXPECT_EQ(0x7a433ca9c49a9347ull, h[1]);
}

static void fingerprint_of(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			   const char *text, uint64_t out[2])
{
	xrt_module *m;

	ASSERT_OK(xrt_hlo_parse(a, text, strlen(text), &m));
	ASSERT_OK(xrt_module_fingerprint(m, out));
	xrt_module_destroy(m);
}

TEST_F(xrt, fingerprints_tell_modules_apart_and_do_not_drift)
{
	static const char *const variants[] = {
		/* The constant, a name, a layout, an attribute: each differs. */
		"HloModule small\nENTRY main {\n  ROOT c = f32[] constant(1)\n}\n",
		"HloModule small\nENTRY main {\n  ROOT c = f32[] constant(2)\n}\n",
		"HloModule small\nENTRY main {\n  ROOT k = f32[] constant(1)\n}\n",
		"HloModule small\nENTRY main {\n  p = f32[2,3]{1,0} parameter(0)\n"
		"  ROOT t = f32[3,2]{1,0} transpose(p), dimensions={1,0}\n}\n",
		"HloModule small\nENTRY main {\n  p = f32[2,3]{0,1} parameter(0)\n"
		"  ROOT t = f32[3,2]{1,0} transpose(p), dimensions={1,0}\n}\n",
	};
	uint64_t f[5][2], again[2];
	size_t i, k;

	for (i = 0; i < 5; i++)
		fingerprint_of(_metadata, self->a, variants[i], f[i]);
	for (i = 0; i < 5; i++) {
		for (k = 0; k < i; k++) {
			EXPECT_FALSE(f[i][0] == f[k][0] && f[i][1] == f[k][1])
				TH_LOG("variants %zu and %zu collide", i, k);
		}
	}
	/* Whitespace, '%' and signatures are not part of the module. */
	fingerprint_of(_metadata, self->a,
		       "HloModule small\n\nENTRY %main () -> f32[] {\n"
		       "  ROOT %c = f32[] constant(1)\n}\n", again);
	EXPECT_EQ(f[0][0], again[0]);
	EXPECT_EQ(f[0][1], again[1]);
	/*
	 * Pinned: a change here changes every cache key, so it must come
	 * with a wire format change.
	 */
	fingerprint_of(_metadata, self->a, small, again);
	EXPECT_EQ(FP_SMALL_0, again[0]);
	EXPECT_EQ(FP_SMALL_1, again[1]);
}

TEST_F(xrt, fingerprint_is_computed_once)
{
	uint64_t f1[2], f2[2];
	xrt_module *m;
	long before;

	ASSERT_OK(xrt_hlo_parse(self->a, small, strlen(small), &m));
	before = self->ta.count;
	ASSERT_OK(xrt_module_fingerprint(m, f1));
	/* The first call serializes (allocates); later calls only read. */
	EXPECT_GT(self->ta.count, before);
	before = self->ta.count;
	ASSERT_OK(xrt_module_fingerprint(m, f2));
	EXPECT_EQ(before, self->ta.count);
	EXPECT_EQ(f1[0], f2[0]);
	EXPECT_EQ(f1[1], f2[1]);
	xrt_module_destroy(m);
}

/*
 * Malformed messages are made by unpacking the small module, changing
 * one thing and packing again.  Unpacking goes to an arena, so a case
 * may point fields at its own storage without anything freeing it.
 */
static uint8_t arena[1 << 18];
static size_t arena_used;

static void *arena_alloc(void *data, size_t size)
{
	void *p;

	(void)data;
	size = (size + 15) & ~(size_t)15;
	if (arena_used + size > sizeof(arena))
		return NULL;
	p = arena + arena_used;
	arena_used += size;
	return p;
}

static void arena_free(void *data, void *p)
{
	(void)data;
	(void)p;
}

static ProtobufCAllocator arena_pb = { arena_alloc, arena_free, NULL };

struct bad_case {
	const char *what;
	const char *needle;
	void (*mutate)(Xrt__IrModule *m);
};

static char s_empty[] = "", s_spaced[] = "bad name", s_frob[] = "frobnicate";
static char s_colour[] = "colour", s_x[] = "x", s_lt[] = "L T", s_dir[] = "direction";
static char s_add[] = "add", s_s[] = "s", s_slice[] = "slice";
static char s_sorted[] = "indices_are_sorted";
static int64_t ints_two[2] = { 0, 0 }, ints_four[4] = { 0, 1, 1, 0 }, int_two = 2;
static uint32_t fwd[2] = { 2, 1 };
static Xrt__IrAttribute extra_attr;
static Xrt__IrAttribute *extra_attrs[1] = { &extra_attr };

static Xrt__IrComputation *comp(Xrt__IrModule *m, int i) { return m->computations[i]; }
static Xrt__IrInstruction *ins(Xrt__IrModule *m, int c, int i)
{
	return m->computations[c]->instructions[i];
}

static void set_extra(Xrt__IrModule *m, char *name, size_t n, int64_t *ints, char *text)
{
	xrt__ir_attribute__init(&extra_attr);
	extra_attr.name = name;
	extra_attr.n_ints = n;
	extra_attr.ints = ints;
	extra_attr.text = text;
	ins(m, 0, 2)->n_attributes = 1;
	ins(m, 0, 2)->attributes = extra_attrs;
}

static void m_noname(Xrt__IrModule *m) { m->name = s_empty; }
static void m_spaced(Xrt__IrModule *m) { m->name = s_spaced; }
static void m_nocomps(Xrt__IrModule *m) { m->n_computations = 0; }
static void m_entry(Xrt__IrModule *m) { m->entry = 5; }
static void m_dupcomp(Xrt__IrModule *m) { comp(m, 1)->name = s_add; }
static void m_noinstrs(Xrt__IrModule *m) { comp(m, 1)->n_instructions = 0; }
static void m_root(Xrt__IrModule *m) { comp(m, 1)->root = 3; }
static void m_opcode(Xrt__IrModule *m) { ins(m, 1, 2)->opcode = s_frob; }
static void m_noshape(Xrt__IrModule *m) { ins(m, 1, 0)->shape = NULL; }
static void m_dupinstr(Xrt__IrModule *m) { ins(m, 0, 1)->name = s_s; }
static void m_forward(Xrt__IrModule *m) { ins(m, 1, 2)->operands = fwd; }
static void m_unknown_attr(Xrt__IrModule *m) { ins(m, 1, 2)->attributes[0]->name = s_colour; }
static void m_self_call(Xrt__IrModule *m) { ins(m, 1, 2)->attributes[1]->ints[0] = 1; }
static void m_text_in_ints(Xrt__IrModule *m) { ins(m, 1, 2)->attributes[0]->text = s_x; }
static void m_two_callees(Xrt__IrModule *m)
{
	ins(m, 1, 2)->attributes[1]->n_ints = 2;
	ins(m, 1, 2)->attributes[1]->ints = ints_two;
}

static void m_order(Xrt__IrModule *m)
{
	Xrt__IrAttribute **at = ins(m, 1, 2)->attributes, *t = at[0];

	at[0] = at[1];
	at[1] = t;
}

static void m_repeat(Xrt__IrModule *m)
{
	ins(m, 1, 2)->attributes[1] = ins(m, 1, 2)->attributes[0];
}

static void m_noliteral(Xrt__IrModule *m) { ins(m, 1, 1)->literal = NULL; }
static void m_stray_literal(Xrt__IrModule *m) { ins(m, 1, 0)->literal = ins(m, 1, 1)->literal; }
static void m_literal_shape(Xrt__IrModule *m)
{
	ins(m, 1, 1)->literal->shape->element_type = XRT__ELEMENT_TYPE__S32;
}

static void m_stray_param(Xrt__IrModule *m) { ins(m, 0, 2)->parameter_number = 1; }
static void m_neg_param(Xrt__IrModule *m) { ins(m, 0, 1)->parameter_number = -1; }
static void m_gap_param(Xrt__IrModule *m) { ins(m, 0, 1)->parameter_number = 7; }
static void m_word(Xrt__IrModule *m) { set_extra(m, s_dir, 0, NULL, s_lt); }
static void m_slice(Xrt__IrModule *m) { set_extra(m, s_slice, 4, ints_four, s_empty); }
static void m_bool(Xrt__IrModule *m) { set_extra(m, s_sorted, 1, &int_two, s_empty); }
static void m_bad_shape(Xrt__IrModule *m) { ins(m, 1, 0)->shape->dimensions[0] = -4; }

static const struct bad_case bad_cases[] = {
	{ "empty module name", "module name is not a valid name", m_noname },
	{ "name with a space", "module name is not a valid name", m_spaced },
	{ "no computations", "has no computations", m_nocomps },
	{ "entry out of range", "entry out of range", m_entry },
	{ "computation twice", "computation 'add' is defined twice", m_dupcomp },
	{ "empty computation", "'main' has no instructions", m_noinstrs },
	{ "root out of range", "root out of range", m_root },
	{ "unknown opcode", "unknown opcode 'frobnicate'", m_opcode },
	{ "no shape", "has no shape", m_noshape },
	{ "instruction twice", "instruction 's' is defined twice", m_dupinstr },
	{ "forward operand", "operand that does not come before it", m_forward },
	{ "unknown attribute", "unknown attribute 'colour'", m_unknown_attr },
	{ "self call", "not defined before its caller", m_self_call },
	{ "text for numbers", "'dimensions' takes numbers, not text", m_text_in_ints },
	{ "two callees", "'to_apply' takes exactly one value", m_two_callees },
	{ "attributes out of order", "out of order or repeated", m_order },
	{ "attribute twice", "out of order or repeated", m_repeat },
	{ "constant without literal", "has no literal", m_noliteral },
	{ "literal on a parameter", "a parameter has a literal", m_stray_literal },
	{ "literal of another shape", "literal does not have its shape", m_literal_shape },
	{ "parameter number on add", "a add has a parameter number", m_stray_param },
	{ "negative parameter number", "bad parameter number", m_neg_param },
	{ "parameter numbers with a gap", "parameter(7)", m_gap_param },
	{ "word with a space", "'direction' is not a bare word", m_word },
	{ "slice of 4 values", "'slice' has a bad number of values", m_slice },
	{ "bool of 2", "'indices_are_sorted' is not 0 or 1", m_bool },
	{ "negative dimension", "shape", m_bad_shape },
};

TEST_F(xrt, malformed_messages_are_rejected_by_name)
{
	static uint8_t packed[1 << 14];
	void *bytes;
	size_t n, i;

	ASSERT_OK(text_to_bytes(self->a, small, &bytes, &n));
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		Xrt__IrModule *m;
		xrt_module *out = (xrt_module *)1;
		size_t len;

		TH_LOG("%s", bad_cases[i].what);
		arena_used = 0;
		m = xrt__ir_module__unpack(&arena_pb, n, bytes);
		ASSERT_NE(NULL, m);
		bad_cases[i].mutate(m);
		len = xrt__ir_module__get_packed_size(m);
		ASSERT_LE(len, sizeof(packed));
		xrt__ir_module__pack(m, packed);
		ASSERT_ERR(xrt_module_deserialize(self->a, packed, len, &out),
			   XRT_INVALID_ARGUMENT, bad_cases[i].needle);
		ASSERT_EQ(NULL, out);
	}
	/* The unchanged message still reads, so each case broke one thing. */
	{
		xrt_module *m;

		ASSERT_OK(xrt_module_deserialize(self->a, bytes, n, &m));
		ASSERT_OK(xrt_module_verify(m));
		xrt_module_destroy(m);
	}
	/* Errors say where. */
	{
		Xrt__IrModule *m;
		xrt_module *out;
		size_t len;

		arena_used = 0;
		m = xrt__ir_module__unpack(&arena_pb, n, bytes);
		ASSERT_NE(NULL, m);
		m_opcode(m);
		len = xrt__ir_module__get_packed_size(m);
		xrt__ir_module__pack(m, packed);
		ASSERT_ERR(xrt_module_deserialize(self->a, packed, len, &out),
			   XRT_INVALID_ARGUMENT, "computation 'main', instruction 2");
	}
	/* Broken bytes: truncated, and not protobuf at all. */
	{
		xrt_module *out;
		static const uint8_t junk[] = { 0xff, 0xff, 0xff, 0xff, 0x0f };

		ASSERT_ERR(xrt_module_deserialize(self->a, bytes, n - 3, &out),
			   XRT_INVALID_ARGUMENT, "module");
		ASSERT_ERR(xrt_module_deserialize(self->a, junk, sizeof(junk), &out),
			   XRT_INVALID_ARGUMENT, "module");
		ASSERT_ERR(xrt_module_deserialize(self->a, NULL, 4, &out),
			   XRT_INVALID_ARGUMENT, "NULL argument");
		ASSERT_ERR(xrt_module_serialize(NULL, self->a, &bytes, &n),
			   XRT_INVALID_ARGUMENT, "NULL argument");
		ASSERT_ERR(xrt_module_deserialize(self->a, bytes, n, NULL),
			   XRT_INVALID_ARGUMENT, "NULL argument");
		ASSERT_ERR(xrt_module_fingerprint(NULL, (uint64_t[2]){ 0 }),
			   XRT_INVALID_ARGUMENT, "NULL argument");
	}
	xrt_free(self->a, bytes);
}

TEST_F(xrt, wire_survives_every_failing_allocation)
{
	char path[1024], *text;
	xrt_module *src;
	void *bytes;
	size_t n;
	long k;

	snprintf(path, sizeof(path), "%s/control_flow.hlo", HLO_CORPUS_DIR);
	text = test_slurp(path, &n);
	ASSERT_NE(NULL, text);
	ASSERT_OK(xrt_hlo_parse(NULL, text, n, &src));
	free(text);
	ASSERT_OK(xrt_module_serialize(src, NULL, &bytes, &n));
	for (k = 1;; k++) {
		xrt_module *m = NULL;
		void *again = NULL;
		size_t len;
		xrt_status *st;

		test_alloc_fail_at(&self->ta, k);
		st = xrt_module_deserialize(self->a, bytes, n, &m);
		if (!st)
			st = xrt_module_serialize(m, self->a, &again, &len);
		if (!self->ta.failed) {
			ASSERT_OK(st);
			ASSERT_EQ(n, len);
			EXPECT_EQ(0, memcmp(bytes, again, n));
			xrt_free(self->a, again);
			xrt_module_destroy(m);
			break;
		}
		ASSERT_EQ(XRT_RESOURCE_EXHAUSTED, xrt_status_code(st))
			TH_LOG("allocation %ld: %s", k, xrt_status_message(st));
		xrt_status_free(st);
		xrt_module_destroy(m);
		ASSERT_EQ(0, self->ta.live) TH_LOG("leak after failing allocation %ld", k);
	}
	ASSERT_GT(k, 50);
	test_alloc_fail_at(&self->ta, 0);
	xrt_free(NULL, bytes);
	xrt_module_destroy(src);
}

TEST_HARNESS_MAIN
