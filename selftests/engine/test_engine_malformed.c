// SPDX-License-Identifier: MIT
/*
 * Malformed programs: each is rejected by the validator for its own
 * reason, which the status names with the command at fault.
 */
#include "engine_test.h"

#include "malformed_programs.h"

TEST_F(xrt, base_program_is_valid)
{
	struct xdev_program prog;
	struct base p;

	make_base(&p);
	ASSERT_OK(xdev_program_load(&prog, self->a, &p, BASE_SIZE));
	ASSERT_EQ(3, prog.prog.num_commands);
	xdev_program_release(&prog);
}

TEST_F(xrt, dump_reads_as_a_listing)
{
	char text[2048];
	struct base p;

	make_base(&p);
	cs_dump(&p, BASE_SIZE, text, sizeof(text));
	ASSERT_NE(NULL, strstr(text, "slot 0: 16 bytes, read\n"));
	ASSERT_NE(NULL, strstr(text, "0: COPY    s1+0 f32[4]{1} <- s0+0 f32[4]{1}\n"))
		TH_LOG("%s", text);
	ASSERT_NE(NULL, strstr(text, "1: FILL    s1+0 s32[4]{1} <- iota(dim 0)\n"));
	ASSERT_NE(NULL, strstr(text, "2: JUMP    -> 0 if s2+0\n"));
	/* Every truncation prints something and reads nothing outside. */
	p.copy.cmd.size = 16;
	cs_dump(&p, BASE_SIZE, text, sizeof(text));
	ASSERT_NE(NULL, strstr(text, "too short"));
	ASSERT_NE(NULL, strstr(text, "(truncated)"));
	cs_dump(&p, 10, text, sizeof(text));
	ASSERT_STREQ("(not a program)\n", text);
}

TEST_F(xrt, each_malformed_program_is_rejected)
{
	struct xdev_program prog;
	struct base p;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		make_base(&p);
		cases[i].mutate(&p);
		ASSERT_ERR(xdev_program_load(&prog, self->a, &p, BASE_SIZE),
			   XRT_INVALID_ARGUMENT, cases[i].needle);
	}
	ASSERT_GE(sizeof(cases) / sizeof(cases[0]), 30);
}

/* A CALL's views: inside their slots, dense and row-major, results apart. */
TEST_F(xrt, malformed_calls_are_rejected)
{
	static const struct {
		int what;
		const char *needle;
	} bad[] = {
		{ 0, "CALL: flags or reserved not 0" },
		{ 1, "CALL: flags or reserved not 0" },
		{ 2, "CALL: size is not that of its views" },
		{ 3, "CALL: more views than XRT_CS_CALL_MAX_VIEWS" },
		{ 4, "part 0: CALL: a view is not dense and row-major" },
		{ 5, "part 1: writes a slot not marked WRITE" },
		{ 6, "CALL: a result overlaps another view" },
		{ 7, "part 1: view reaches past the end of its slot" },
		{ 8, "part 0: reads a slot not marked READ" },
	};
	struct xdev_program prog;
	struct call_base p;
	size_t i;

	make_call_base(&p);
	ASSERT_OK(xdev_program_load(&prog, self->a, &p, CALL_BASE_SIZE));
	ASSERT_NE(NULL, xrt_engine_call_of(&(struct xrt_engine_ctx){ .prog = &prog.prog }, 0));
	xdev_program_release(&prog);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		make_call_base(&p);
		switch (bad[i].what) {
		case 0: p.call.cmd.flags = 1; break;
		case 1: p.call.reserved = 1; break;
		case 2: p.call.num_args = 2; break;
		case 3: p.call.num_args = 300; break;
		case 4: p.views[0].strides[0] = 2; p.views[0].dims[0] = 2; break;
		case 5: p.views[1].slot = 0; break;
		case 6: p.views[0].slot = 2; p.views[1].slot = 2; p.views[1].offset = 4; break;
		case 7: p.views[1].offset = 4; break;
		case 8: p.views[0].slot = 1; break;
		}
		ASSERT_ERR(xdev_program_load(&prog, self->a, &p, CALL_BASE_SIZE),
			   XRT_INVALID_ARGUMENT, bad[i].needle);
	}
	/* results side by side in one slot are apart */
	make_call_base(&p);
	p.views[0].slot = 2;
	p.views[1].slot = 2;
	p.views[1].offset = 16;
	ASSERT_OK(xdev_program_load(&prog, self->a, &p, CALL_BASE_SIZE));
	xdev_program_release(&prog);
}

/* A COLLECTIVE's kind, op, dim, views and shapes; the engine stops before it. */
TEST_F(xrt, malformed_collectives_are_rejected)
{
	static const struct {
		int what;
		const char *needle;
	} bad[] = {
		{ 0, "COLLECTIVE: flags, pad or reserved not 0" },
		{ 1, "COLLECTIVE: flags, pad or reserved not 0" },
		{ 2, "COLLECTIVE: unknown kind" },
		{ 3, "COLLECTIVE: unknown kind" },
		{ 4, "COLLECTIVE: op set for a kind that does not reduce" },
		{ 5, "COLLECTIVE: op is not SUM to OR" },
		{ 6, "COLLECTIVE: dim set for a kind without one" },
		{ 7, "COLLECTIVE: num_in and num_out not equal" },
		{ 8, "COLLECTIVE: num_in and num_out not equal" },
		{ 9, "COLLECTIVE: size is not that of its views" },
		{ 10, "part 0: COLLECTIVE: a view is not dense and row-major" },
		{ 11, "part 1: writes a slot not marked WRITE" },
		{ 12, "COLLECTIVE: a gathered dimension is not a multiple of the input's" },
		{ 13, "COLLECTIVE: an output's dtype or rank is not its input's" },
		{ 14, "COLLECTIVE: an output's dims are not its input's" },
		{ 15, "COLLECTIVE: a scattered dimension does not divide the input's" },
		{ 16, "COLLECTIVE: op does not take the dtype" },
		{ 17, "COLLECTIVE: an output overlaps another view" },
		{ 18, "COLLECTIVE: dim not below the rank" },
		{ 19, "COLLECTIVE: ALL_TO_ALL_TUPLE's views are not of one shape" },
	};
	struct xdev_program prog;
	struct coll_base p;
	size_t i;

	make_coll_base(&p);
	ASSERT_OK(xdev_program_load(&prog, self->a, &p, COLL_BASE_SIZE));
	{
		struct xrt_engine_ctx x = { .prog = &prog.prog };
		struct xrt_engine_cursor cur = { 0 };

		ASSERT_NE(NULL, xrt_engine_collective_of(&x, 0));
		EXPECT_EQ(NULL, xrt_engine_call_of(&x, 0));
		/* nothing runs: the executor performs it, around the engine */
		EXPECT_EQ(0, xrt_engine_phases(&x, 0));
		EXPECT_EQ(-1, xrt_engine_step(&x, &cur, 100, NULL));
		EXPECT_EQ(0, cur.pc);
	}
	xdev_program_release(&prog);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		make_coll_base(&p);
		switch (bad[i].what) {
		case 0: p.coll.cmd.flags = 1; break;
		case 1: p.coll.reserved = 1; break;
		case 2: p.coll.kind = 0; break;
		case 3: p.coll.kind = XRT_CS_COLL_BROADCAST + 1; break;
		case 4: p.coll.op = XRT_CS_RED_SUM; break;
		case 5: p.coll.kind = XRT_CS_COLL_ALL_REDUCE; p.views[1].dims[0] = 2;
			p.coll.op = XRT_CS_RED_ARGMAX; break;
		case 6: p.coll.kind = XRT_CS_COLL_PERMUTE; p.coll.dim = 1; break;
		case 7: p.coll.num_out = 2; break;
		case 8: p.coll.num_in = p.coll.num_out = 0; break;
		case 9: p.coll.num_in = p.coll.num_out = 2; break;
		case 10: p.views[0].strides[0] = 2; break;
		case 11: p.views[1].slot = 0; break;
		case 12: p.views[1].dims[0] = 3; break;
		case 13: p.views[1].dtype = XRT_CS_S32; break;
		case 14: p.coll.kind = XRT_CS_COLL_BROADCAST; break;
		case 15: p.coll.kind = XRT_CS_COLL_REDUCE_SCATTER; p.coll.op = XRT_CS_RED_SUM; break;
		case 16: p.coll.kind = XRT_CS_COLL_ALL_REDUCE; p.views[1].dims[0] = 2;
			p.coll.op = XRT_CS_RED_AND; break;
		case 17: p.views[0].slot = 2; p.views[1].slot = 2; p.views[1].offset = 4; break;
		case 18: p.coll.dim = 1; break;
		case 19: p.coll.kind = XRT_CS_COLL_ALL_TO_ALL_TUPLE; break;
		}
		ASSERT_ERR(xdev_program_load(&prog, self->a, &p, COLL_BASE_SIZE),
			   XRT_INVALID_ARGUMENT, bad[i].needle);
	}
}

TEST_F(xrt, truncated_and_misaligned_buffers)
{
	struct xdev_program prog;
	struct base p;
	size_t n;

	for (n = 0; n < BASE_SIZE; n += 8) {
		xrt_status *st;

		make_base(&p);
		p.h.size = n;
		st = xdev_program_load(&prog, self->a, &p, n);
		ASSERT_EQ(XRT_INVALID_ARGUMENT, xrt_status_code(st)) TH_LOG("%zu bytes", n);
		xrt_status_free(st);
	}
	make_base(&p);
	ASSERT_ERR(xdev_program_load(&prog, self->a, (uint8_t *)&p + 4, 64),
		   XRT_INVALID_ARGUMENT, "not 8-byte aligned");
	ASSERT_ERR(xdev_program_load(&prog, self->a, &p, 8), XRT_INVALID_ARGUMENT,
		   "program shorter than its header");
}

/* Validation writes offsets and plans: without room for them it refuses. */
TEST_F(xrt, validation_needs_its_storage)
{
	static uint8_t plans[BASE_SIZE] __attribute__((aligned(8)));
	struct xrt_engine_error err;
	struct xrt_engine_prog prog;
	uint32_t offsets[3];
	struct base p;

	make_base(&p);
	ASSERT_EQ(0, xrt_engine_validate(&prog, &p, BASE_SIZE, offsets, plans, &err));
	ASSERT_EQ(-1, xrt_engine_validate(&prog, &p, BASE_SIZE, NULL, plans, &err));
	EXPECT_STREQ("no room for command offsets or plans", err.reason);
	EXPECT_EQ(1, err.value[0]);
	ASSERT_EQ(-1, xrt_engine_validate(&prog, &p, BASE_SIZE, offsets, NULL, &err));
	EXPECT_EQ(1, err.value[1]);
}

/*
 * Validation in pieces (as the kernel runs it, a bounded FPU section
 * each) gives what validation in one go gives: the same offsets and the
 * same verdict on every malformed program, at the same command.
 */
TEST_F(xrt, validation_in_pieces_agrees_with_one_go)
{
	static uint8_t plans[BASE_SIZE] __attribute__((aligned(8)));
	struct xrt_engine_error whole, piece;
	struct xrt_engine_prog p1, p2;
	uint32_t off1[8], off2[8], next, budget;	/* room for a header that says 4 */
	struct base p;
	size_t i;
	int r1, r2;

	for (i = 0; i <= sizeof(cases) / sizeof(cases[0]); i++) {
		for (budget = 1; budget <= 3; budget++) {
			int calls = 0;

			make_base(&p);
			if (i < sizeof(cases) / sizeof(cases[0]))
				cases[i].mutate(&p);
			memset(&whole, 0, sizeof(whole));
			memset(&piece, 0, sizeof(piece));
			r1 = xrt_engine_validate(&p1, &p, BASE_SIZE, off1, plans, &whole);
			next = 0;
			do {
				r2 = xrt_engine_validate_some(&p2, &p, BASE_SIZE, off2, plans,
							      &piece, &next, budget);
				calls++;
			} while (r2 == 0 && calls < 10);
			ASSERT_EQ(r1 == 0 ? 1 : -1, r2) TH_LOG("case %zu, budget %u", i, budget);
			if (r1) {
				EXPECT_EQ(whole.command, piece.command) TH_LOG("case %zu", i);
				EXPECT_STREQ(whole.reason, piece.reason);
				continue;
			}
			EXPECT_EQ(3, next);
			EXPECT_EQ((int)((3 + budget - 1) / budget), calls);
			EXPECT_EQ(0, memcmp(off1, off2, 3 * sizeof(off1[0])));
			EXPECT_EQ(p1.thread_ws_size, p2.thread_ws_size);
		}
	}
}

/* An EWISE program c = a + b over f32[64], to be spoiled case by case. */
struct ew_case {
	struct xrt_cs_operand ops[4];
	struct xrt_cs_ew_inst in[6];
	uint32_t nops, nin, nregs, rank;
	uint64_t dims[XRT_CS_MAX_RANK];
};

static void ew_base(struct ew_case *c)
{
	int64_t st[1] = { 1 };

	memset(c, 0, sizeof(*c));
	c->nops = 3;
	c->nin = 4;
	c->nregs = 3;
	c->rank = 1;
	c->dims[0] = 64;
	c->ops[0] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 1, st);
	c->ops[1] = cs_operand(1, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 1, st);
	c->ops[2] = cs_operand(2, XRT_CS_F32, XRT_CS_OPERAND_OUT, 0, 1, st);
	c->in[0] = (struct xrt_cs_ew_inst){ XRT_CS_EW_LOAD, 0, XRT_CS_F32, 0, 0 };
	c->in[1] = (struct xrt_cs_ew_inst){ XRT_CS_EW_LOAD, 0, XRT_CS_F32, 1, 1 };
	c->in[2] = (struct xrt_cs_ew_inst){ XRT_CS_EW_BINARY, XRT_CS_BIN_ADD,
					    XRT_CS_F32, 2, 0, 1 };
	c->in[3] = (struct xrt_cs_ew_inst){ XRT_CS_EW_STORE, 0, 0, 0, 2, 2 };
}

static xrt_status *ew_load_case(const struct ew_case *c, int64_t size_delta)
{
	struct xdev_program prog;
	struct cs_builder b;
	struct xrt_cs_ewise *cmd;
	xrt_status *st;
	void *p;
	size_t n;

	cs_builder_init(&b, NULL);
	cs_add_slot(&b, 256, XRT_CS_SLOT_READ);
	cs_add_slot(&b, 256, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
	cs_add_slot(&b, 256, XRT_CS_SLOT_WRITE);
	cs_ewise(&b, c->rank, c->dims, c->ops, c->nops, c->in, c->nin, c->nregs);
	cmd = (struct xrt_cs_ewise *)b.cmds;
	if (cmd) {
		cmd->cmd.size = (uint32_t)(cmd->cmd.size + size_delta);
		memcpy(cmd->dims, c->dims, sizeof(cmd->dims));
	}
	st = cs_finish(&b, &p, &n);
	if (st)
		return st;
	st = xdev_program_load(&prog, NULL, p, n);
	if (!st)
		xdev_program_release(&prog);
	xrt_free(NULL, p);
	return st;
}

#define EW_REJECT(body, needle)                                               \
	do {                                                                  \
		struct ew_case c;                                             \
		ew_base(&c);                                                  \
		body;                                                         \
		ASSERT_ERR(ew_load_case(&c, 0), XRT_INVALID_ARGUMENT, needle); \
	} while (0)

TEST_F(xrt, ewise_base_is_valid)
{
	struct ew_case c;

	ew_base(&c);
	ASSERT_OK(ew_load_case(&c, 0));
	ASSERT_ERR(ew_load_case(&c, 8), XRT_INVALID_ARGUMENT, "bad command size");
}

TEST_F(xrt, ewise_malformed)
{
	EW_REJECT(c.in[2].b = 2, "part 2: instruction reads a register never written");
	EW_REJECT(c.in[0].a = 2, "part 0: LOAD from an operand that is not IN");
	EW_REJECT(c.in[3].a = 1, "part 3: STORE to an operand that is not OUT");
	EW_REJECT(c.ops[2].dtype = XRT_CS_S32, "STORE of a register of another type");
	EW_REJECT(c.nin = 3, "OUT operand never stored");
	EW_REJECT(c.in[4] = c.in[3]; c.nin = 5, "operand stored twice");
	EW_REJECT(c.in[2].op = 10, "unknown instruction");
	EW_REJECT(c.in[2].op = XRT_CS_EW_UNARY; c.in[2].fn = 99; c.in[2].b = 0,
		  "unknown unary function");
	EW_REJECT(c.in[2].op = XRT_CS_EW_UNARY; c.in[2].fn = XRT_CS_UN_POPCNT;
		  c.in[2].b = 0, "unary function does not take this type");
	EW_REJECT(c.in[2].op = XRT_CS_EW_UNARY; c.in[2].fn = XRT_CS_UN_EXP;
		  c.in[2].b = 0; c.in[2].dtype = XRT_CS_S32,
		  "unary function does not take this type");
	EW_REJECT(c.in[1].dtype = XRT_CS_S32; c.ops[1].dtype = XRT_CS_S32,
		  "binary function does not take these types");
	EW_REJECT(c.in[2].fn = 77, "binary function does not take these types");
	EW_REJECT(c.in[2].op = XRT_CS_EW_COMPARE; c.in[2].fn = XRT_CS_CMP_LT,
		  "comparison of different types, or not to pred");
	EW_REJECT(c.in[2].op = XRT_CS_EW_COMPARE; c.in[2].fn = 9; c.in[2].dtype = XRT_CS_PRED,
		  "unknown comparison");
	EW_REJECT(c.in[2].op = XRT_CS_EW_SELECT; c.in[2].fn = 0; c.in[2].c = 1,
		  "SELECT needs a pred");
	EW_REJECT(c.in[2].op = XRT_CS_EW_BITCAST; c.in[2].fn = 0; c.in[2].b = 0;
		  c.in[2].dtype = XRT_CS_S16, "BITCAST between types of different sizes");
	EW_REJECT(c.in[0].op = XRT_CS_EW_CONST; c.in[0].dtype = XRT_CS_PRED;
		  c.in[0].a = 0; c.in[0].imm[0] = 2, "CONST pred not 0 or 1");
	EW_REJECT(c.in[0].op = XRT_CS_EW_CONST; c.in[0].a = 0;
		  c.in[0].imm[1] = 1, "CONST bytes past the element size not 0");
	EW_REJECT(c.in[2].dst = 3, "register out of range");
	EW_REJECT(c.nregs = 0, "number of registers not 1..32");
	EW_REJECT(c.nregs = 33, "number of registers not 1..32");
	EW_REJECT(c.dims[0] = 32; c.ops[2].slot = 1; c.ops[2].offset = 4,
		  "OUT operand overlaps another operand");
	EW_REJECT(c.ops[1].flags = 3, "operand flags neither IN nor OUT");
	EW_REJECT(c.ops[1].strides[2] = 1, "strides past the rank not 0");
	EW_REJECT(c.dims[3] = 5, "EWISE: dims past the rank not 0");
	EW_REJECT(c.in[2].imm[0] = 1, "imm not 0");
	EW_REJECT(c.in[1].pad = 1, "instruction padding not 0");
	EW_REJECT(c.dims[0] = 65, "view reaches past the end of its slot");
	EW_REJECT(c.rank = 9, "EWISE: rank above 8");
	EW_REJECT(c.ops[0].dtype = XRT_CS_C64; c.ops[1].dtype = XRT_CS_C64;
		  c.in[0].dtype = XRT_CS_C64; c.in[1].dtype = XRT_CS_C64;
		  c.dims[0] = 32; c.in[2].op = XRT_CS_EW_COMPARE;
		  c.in[2].fn = XRT_CS_CMP_LT; c.in[2].dtype = XRT_CS_PRED,
		  "complex numbers only compare for equality");
	EW_REJECT(c.ops[0].dtype = XRT_CS_S32; c.ops[1].dtype = XRT_CS_S32;
		  c.in[0].dtype = XRT_CS_S32; c.in[1].dtype = XRT_CS_S32;
		  c.in[2].op = XRT_CS_EW_COMPARE; c.in[2].fn = XRT_CS_CMP_LT |
		  XRT_CS_CMP_TOTAL_ORDER; c.in[2].dtype = XRT_CS_PRED,
		  "total order is for floats");
}

TEST_HARNESS_MAIN
