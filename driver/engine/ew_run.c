// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Running an expression program over one block of a row.  Register
 * types are followed as the validator followed them.
 */
#include "ew.h"

/* Bytes per element of a register of type @t. */
static u32 rep_size(u32 t)
{
	switch (ew_class_of(t)) {
	case EW_F32:
		return 4;
	case EW_C128:
		return 16;
	default:
		return 8;
	}
}

static void compute(const struct xrt_cs_ew_inst *in, u32 ta, void *d,
		    const void *a, const void *b, const void *c, u32 n)
{
	u32 i;

	switch (in->op) {
	case XRT_CS_EW_UNARY:
		switch (ew_class_of(ta)) {
		case EW_INT:
			ew_int_unary(in->fn, ta, d, a, n);
			break;
		case EW_F32:
			ew_f32_unary(in->fn, ta, d, a, n);
			break;
		case EW_F64:
			ew_f64_unary(in->fn, ta, d, a, n);
			break;
		case EW_C64:
			ew_c64_unary(in->fn, d, a, n);
			break;
		default:
			ew_c128_unary(in->fn, d, a, n);
			break;
		}
		break;
	case XRT_CS_EW_BINARY:
		if (in->fn == XRT_CS_BIN_COMPLEX) {
			ew_complex_from_parts(in->dtype, d, a, b, n);
			break;
		}
		switch (ew_class_of(ta)) {
		case EW_INT:
			ew_int_binary(in->fn, ta, d, a, b, n);
			break;
		case EW_F32:
			ew_f32_binary(in->fn, d, a, b, n);
			break;
		case EW_F64:
			ew_f64_binary(in->fn, d, a, b, n);
			break;
		case EW_C64:
			ew_c64_binary(in->fn, d, a, b, n);
			break;
		default:
			ew_c128_binary(in->fn, d, a, b, n);
			break;
		}
		break;
	case XRT_CS_EW_COMPARE:
		switch (ew_class_of(ta)) {
		case EW_INT:
			ew_int_compare(in->fn, ta, d, a, b, n);
			break;
		case EW_F32:
			ew_f32_compare(in->fn, d, a, b, n);
			break;
		case EW_F64:
			ew_f64_compare(in->fn, d, a, b, n);
			break;
		default:
			ew_complex_compare(in->fn, ta, d, a, b, n);
			break;
		}
		break;
	case XRT_CS_EW_SELECT: {
		u32 sz = rep_size(in->dtype);
		const s64 *p = a;

		for (i = 0; i < n; i++)
			memcpy((u8 *)d + (size_t)i * sz,
			       (const u8 *)(p[i] ? b : c) + (size_t)i * sz, sz);
		break;
	}
	case XRT_CS_EW_CONVERT:
		ew_convert(in->dtype, d, ta, a, n);
		break;
	default:
		ew_bitcast(in->dtype, d, ta, a, n);
		break;
	}
	/* f16, bf16 and the small floats stay rounded to their format. */
	if (in->dtype == XRT_CS_F16 || in->dtype == XRT_CS_BF16 || xs_is_small_float(in->dtype))
		ew_round_half(in->dtype, d, n);
}

/* Would writing register @dst while reading @src clobber unread input? */
static int clobbers(const struct xrt_cs_ew_inst *in, const u8 *type, u32 src)
{
	return in->dst == src && rep_size(in->dtype) != rep_size(type[src]);
}

/* Does @in compute from registers (not LOAD, CONST or STORE)? */
static int computes(const struct xrt_cs_ew_inst *in)
{
	return in->op != XRT_CS_EW_LOAD && in->op != XRT_CS_EW_CONST &&
	       in->op != XRT_CS_EW_STORE;
}

/*
 * Does @in (one that computes) go through the scratch register, with
 * the registers' types as they are when it runs?
 */
static int needs_scratch(const struct xrt_cs_ew_inst *in, const u8 *type)
{
	if (clobbers(in, type, in->a))
		return 1;
	if (in->op == XRT_CS_EW_UNARY || in->op == XRT_CS_EW_CONVERT ||
	    in->op == XRT_CS_EW_BITCAST)
		return 0;
	return clobbers(in, type, in->b) ||
	       (in->op == XRT_CS_EW_SELECT && clobbers(in, type, in->c));
}

/*
 * Copies @bytes to @d with non-temporal stores where the ISA has them
 * (SSE2 on x86-64, the engine's baseline; whole lines with AVX-512), so
 * @d's lines are neither read first nor kept.  Such stores are weakly
 * ordered: the caller fences before anyone may read them.  A line in
 * one store rather than four: the fused tanh(a*x+b)*c went from 0.67 to
 * 0.69-0.73 of the triad.
 */
#ifdef __x86_64__
typedef long long v2di __attribute__((vector_size(2 * sizeof(s64))));
typedef long long v8di __attribute__((vector_size(8 * sizeof(s64))));

/* The whole 16-byte pieces of @bytes, to a 16-byte aligned @d: how many bytes. */
static size_t stream16(u8 *d, const u8 *s, size_t bytes)
{
	size_t i;

	for (i = 0; i + 16 <= bytes; i += 16) {
		v2di v;

		memcpy(&v, s + i, 16);
		__asm__("movntdq %1, %0" : "=m"(*(v2di *)(d + i)) : "x"(v));
	}
	return i;
}

/* Likewise in whole 64-byte lines. */
ENGINE_AVX512
static size_t stream64(u8 *d, const u8 *s, size_t bytes)
{
	size_t i;

	for (i = 0; i + 64 <= bytes; i += 64) {
		v8di v;

		memcpy(&v, s + i, 64);
		__asm__("vmovntdq %1, %0" : "=m"(*(v8di *)(d + i)) : "v"(v));
	}
	return i;
}
#endif

static void stream_copy(u8 *d, const u8 *s, size_t bytes)
{
#ifdef __x86_64__
	size_t w = xrt_engine_use_avx512 ? 64 : 16;
	size_t i = (w - ((unsigned long)d & (w - 1))) & (w - 1);

	/* up to the first boundary, the aligned pieces, the tail */
	i = engine_min(i, bytes);
	memcpy(d, s, i);
	i += w == 64 ? stream64(d + i, s + i, bytes - i) : stream16(d + i, s + i, bytes - i);
	memcpy(d + i, s + i, bytes - i);
#else
	memcpy(d, s, bytes);
#endif
}

/*
 * The block after next of each contiguous operand, asked for while this
 * one is computed: a block of f32 is a page, and hardware prefetchers
 * stop at pages, so each block would otherwise start with a wait on
 * memory.  Asked all at once, the lines outnumber the core's fill
 * buffers and the prefetches stall the computation they were to
 * overlap; so they are spread over the sub-blocks of the unary
 * functions (the long passes: tanh, exp, ...), and asked at once only in
 * programs without one.  Spread so, the last lines of the very next
 * block would come too late: asked two blocks ahead, the fused
 * tanh(a*x+b)*c went from 0.61-0.63 of the triad to 0.67-0.69 (three or
 * four ahead: 0.66-0.67).  Prefetches never fault, past the end of a row
 * included.
 */
#define EW_SPREAD	128	/* elements of a unary pass between prefetches */
#define EW_AHEAD	2	/* blocks */

struct next_block {
	const u8 *at[XRT_CS_MAX_OPERANDS];
	u32 lines[XRT_CS_MAX_OPERANDS];
	u8 write[XRT_CS_MAX_OPERANDS];
	u32 num, cur, line;	/* ranges; the next line to ask for */
	u32 per_step;		/* lines asked before each sub-block */
	u32 copy_step;		/* bytes of a deferred result written after each */
};

static void ask_lines(struct next_block *nb, u32 count)
{
	while (count && nb->cur < nb->num) {
		const u8 *p = nb->at[nb->cur];
		u32 end = (u32)engine_min(nb->line + (u64)count, nb->lines[nb->cur]), l;

		/* tight loops: a block's 64 lines at once must cost no more than before */
		if (nb->write[nb->cur])
			for (l = nb->line; l < end; l++)
				__builtin_prefetch(p + (size_t)l * 64, 1);
		else
			for (l = nb->line; l < end; l++)
				__builtin_prefetch(p + (size_t)l * 64, 0);
		count -= end - nb->line;
		nb->line = end;
		if (end == nb->lines[nb->cur]) {
			nb->cur++;
			nb->line = 0;
		}
	}
}

static void next_range(struct next_block *nb, const u8 *p, size_t bytes, int write)
{
	nb->at[nb->num] = p;
	nb->lines[nb->num] = (u32)((bytes + 63) / 64);
	nb->write[nb->num++] = (u8)write;
}

/* The ranges EW_AHEAD blocks on; asked at once unless a unary pass can carry them. */
static void plan_next(const struct ew_plan *pl, const struct xrt_cs_ew_inst *insts,
		      u32 num_insts, const struct ew_row *row, u64 start, u32 n,
		      struct next_block *nb)
{
	u64 at = start + (u64)EW_AHEAD * n;
	u32 i, unary = 0, total = 0;

	nb->num = 0;
	nb->cur = 0;
	nb->line = 0;
	for (i = 0; i < num_insts && nb->num < XRT_CS_MAX_OPERANDS; i++) {
		const struct xrt_cs_ew_inst *in = &insts[i];
		u32 op;

		if (in->op == XRT_CS_EW_LOAD && pl->in_place[in->a] &&
		    !(pl->inst[i].flags & EW_UNIFORM)) {
			op = in->a;
			next_range(nb, row->ptr[op] + at * pl->es[op],
				   (size_t)n * pl->es[op], 0);
		} else if ((pl->inst[i].flags & EW_FWD) && !pl->stream) {
			op = insts[i + 1].a;	/* the STORE it writes for */
			next_range(nb, row->ptr[op] + at * pl->es[op],
				   (size_t)n * pl->es[op], 1);
		}
		unary += in->op == XRT_CS_EW_UNARY;
	}
	for (i = 0; i < nb->num; i++)
		total += nb->lines[i];
	if (!unary) {
		ask_lines(nb, total);
		return;
	}
	i = unary * ((n + EW_SPREAD - 1) / EW_SPREAD);
	nb->per_step = (total + i - 1) / i;
	/* whole lines, so every piece starts as the first does against a line */
	nb->copy_step = (row->pend_bytes + i - 1) / i;
	nb->copy_step = (nb->copy_step + 63) & ~63u;
}

/* Writes up to @bytes more of the result @row holds back. */
static void pend_write(struct ew_row *row, u32 bytes)
{
	u32 m = engine_min(bytes, row->pend_bytes - row->pend_done);

	if (!m)
		return;
	stream_copy(row->pend_dst + row->pend_done, row->pend_src + row->pend_done, m);
	row->pend_done += m;
}

/*
 * A unary function over @n elements; between its sub-blocks, asks for
 * lines of the next block and writes a piece of the previous block's result.
 */
static void unary_spread(const struct xrt_cs_ew_inst *in, u32 ta, u8 *d, const u8 *a, u32 n,
			 struct next_block *nb, struct ew_row *row)
{
	u32 sd = rep_size(in->dtype), sa = rep_size(ta), k, m;

	for (k = 0; k < n; k += m) {
		m = engine_min(n - k, EW_SPREAD);
		ask_lines(nb, nb->per_step);
		compute(in, ta, d + (size_t)k * sd, a + (size_t)k * sa, NULL, NULL, m);
		pend_write(row, nb->copy_step);
	}
}

/* @n bytes of this block's result at @src for @d: the previous block's go out first. */
static void defer_write(struct ew_row *row, u8 *d, const u8 *src, u32 n)
{
	pend_write(row, row->pend_bytes);
	row->pend_dst = d;
	row->pend_src = src;
	row->pend_bytes = n;
	row->pend_done = 0;
}

/* Of the two deferral registers past the scratch one, the one not held back. */
static u8 *defer_reg(const struct ew_row *row, u8 *regs, u32 num_regs)
{
	u8 *first = ew_reg(regs, num_regs + 1);

	return row->pend_src == first ? ew_reg(regs, num_regs + 2) : first;
}

void ew_row_end(struct ew_row *row)
{
	if (row->plan->defer)
		defer_write(row, NULL, NULL, 0);
}

void ew_rows_done(const struct ew_plan *pl)
{
#ifdef __x86_64__
	if (pl->stream)
		__asm__ __volatile__("sfence" : : : "memory");
#endif
}

void ew_run_block(const struct xrt_cs_operand *ops,
		  const struct xrt_cs_ew_inst *insts, u32 num_insts,
		  struct ew_row *row, u64 start, u32 n, u8 *regs,
		  u32 num_regs, const void **at)
{
	const struct ew_plan *pl = row->plan;
	struct next_block nb;
	u32 i;

	nb.num = 0;
	nb.cur = 0;
	nb.copy_step = 0;
	if (pl->prefetch)
		plan_next(pl, insts, num_insts, row, start, n, &nb);
	for (i = 0; i < num_insts; i++) {
		const struct xrt_cs_ew_inst *in = &insts[i];
		u32 flags = pl->inst[i].flags, ta = pl->inst[i].ta, es;
		void *d = ew_reg(regs, in->dst), *out;

		switch (in->op) {
		case XRT_CS_EW_LOAD:
			at[in->dst] = d;
			if ((flags & EW_UNIFORM) && start)
				break;	/* filled at the row's first block */
			es = pl->es[in->a];
			if (pl->in_place[in->a]) {
				at[in->dst] = row->ptr[in->a] + (s64)start * es;
				break;
			}
			ew_load(in->dtype, d, row->ptr[in->a] +
				(s64)start * pl->stride[in->a] * es,
				pl->stride[in->a], n);
			break;
		case XRT_CS_EW_CONST:
			/* the registers are kept between the blocks of a command */
			if (!(flags & EW_ONCE))
				ew_const(in->dtype, d, in->imm, n);
			else if (!row->consts_filled)
				ew_const(in->dtype, d, in->imm, EW_BLOCK);
			at[in->dst] = d;
			break;
		case XRT_CS_EW_STORE:
			es = pl->es[in->a];
			ew_store(ops[in->a].dtype, row->ptr[in->a] +
				 (s64)start * pl->stride[in->a] * es,
				 pl->stride[in->a], at[in->b], n);
			break;
		default:
			if (flags & EW_FWD) {
				const struct xrt_cs_ew_inst *st = &insts[i + 1];

				/* Straight into the operand; the STORE is done. */
				es = pl->es[st->a];
				d = row->ptr[st->a] + (s64)start * es;
				i++;
			}
			if ((flags & EW_FWD) && pl->defer)
				out = defer_reg(row, regs, num_regs);
			else if ((flags & EW_SCRATCH) || ((flags & EW_FWD) && pl->stream))
				out = ew_reg(regs, num_regs);
			else
				out = d;
			if (in->op == XRT_CS_EW_UNARY &&
			    (nb.cur < nb.num || row->pend_done < row->pend_bytes))
				unary_spread(in, ta, out, at[in->a], n, &nb, row);
			else
				compute(in, ta, out, at[in->a], at[in->b], at[in->c], n);
			at[in->dst] = d;
			if ((flags & EW_FWD) && pl->defer) {
				defer_write(row, d, out, n * rep_size(in->dtype));
				at[in->dst] = out;	/* where its values are for now */
			} else if ((flags & EW_FWD) && pl->stream) {
				stream_copy(d, out, (size_t)n * rep_size(in->dtype));
			} else if (out != d) {
				memcpy(d, out, (size_t)n * rep_size(in->dtype));
			}
			break;
		}
	}
	row->consts_filled = 1;
}

/* Is register @r read by instructions from @from on, before a write? */
static int read_later(const struct xrt_cs_ew_inst *insts, u32 from, u32 n, u32 r)
{
	u32 i;

	for (i = from; i < n; i++) {
		const struct xrt_cs_ew_inst *in = &insts[i];

		if (in->op == XRT_CS_EW_STORE) {
			if (in->b == r)
				return 1;
			continue;
		}
		if (in->op != XRT_CS_EW_LOAD && in->op != XRT_CS_EW_CONST &&
		    (in->a == r || (in->op != XRT_CS_EW_UNARY &&
				    in->op != XRT_CS_EW_CONVERT &&
				    in->op != XRT_CS_EW_BITCAST &&
				    (in->b == r || (in->op == XRT_CS_EW_SELECT &&
						    in->c == r)))))
			return 1;
		if (in->dst == r)
			return 0;
	}
	return 0;
}

static int format_is_register(u32 t)
{
	return t == XRT_CS_F32 || t == XRT_CS_F64 || t == XRT_CS_C64 ||
	       t == XRT_CS_C128;
}

/* Is @slot among the @n slots of @out? */
static int among(const u32 *out, u32 n, u32 slot)
{
	u32 j;

	for (j = 0; j < n; j++)
		if (out[j] == slot)
			return 1;
	return 0;
}

/* May instruction @i compute straight into the next STORE's operand? */
static int forwards(const struct xrt_cs_operand *ops, const struct xrt_cs_ew_inst *insts,
		    u32 num_insts, u32 rank, const struct ew_plan *plan, u32 i)
{
	const struct xrt_cs_ew_inst *in = &insts[i], *st = &insts[i + 1];

	if (i + 1 >= num_insts || st->op != XRT_CS_EW_STORE || st->b != in->dst ||
	    in->op == XRT_CS_EW_LOAD || in->op == XRT_CS_EW_CONST ||
	    in->op == XRT_CS_EW_STORE || !rank || plan->stride[st->a] != 1 ||
	    !format_is_register(in->dtype) || ops[st->a].dtype != in->dtype)
		return 0;
	/* Not when a source is the output itself, read in place. */
	return !read_later(insts, i + 2, num_insts, in->dst);
}

void ew_make_plan(const struct xrt_cs_operand *ops, u32 num_ops,
		  const struct xrt_cs_ew_inst *insts, u32 num_insts, u32 rank,
		  u32 axis, u64 n, struct ew_plan *plan)
{
	u32 out[XRT_CS_MAX_OPERANDS], num_out = 0, i, es = 0, fwd = 0, stores = 0, unary = 0;
	u8 writers[XRT_CS_MAX_REGS] = { 0 }, type[XRT_CS_MAX_REGS] = { 0 };

	memset(plan, 0, sizeof(*plan));
	plan->count = n;
	for (i = 0; i < num_ops; i++) {
		plan->stride[i] = rank ? ops[i].strides[axis] : 0;
		plan->es[i] = xs_dtype_size(ops[i].dtype);
		es += plan->es[i];
		if (ops[i].flags == XRT_CS_OPERAND_OUT)
			out[num_out++] = ops[i].slot;
	}
	/* Not where an in-place update writes what this operand reads. */
	for (i = 0; i < num_ops; i++)
		plan->in_place[i] = ops[i].flags == XRT_CS_OPERAND_IN &&
				    plan->stride[i] == 1 && rank &&
				    format_is_register(ops[i].dtype) &&
				    !among(out, num_out, ops[i].slot);
	for (i = 0; i < num_insts; i++) {
		if (insts[i].op != XRT_CS_EW_STORE && writers[insts[i].dst] < 2)
			writers[insts[i].dst]++;
	}
	for (i = 0; i < num_insts; i++) {
		const struct xrt_cs_ew_inst *in = &insts[i];
		int only = writers[in->dst] == 1;

		plan->inst[i].flags = 0;
		plan->inst[i].ta = 0;
		/* registers' types followed as the validator followed them */
		if (computes(in)) {
			plan->inst[i].ta = type[in->a];
			if (needs_scratch(in, type))
				plan->inst[i].flags |= EW_SCRATCH;
		}
		unary += in->op == XRT_CS_EW_UNARY;
		if (in->op != XRT_CS_EW_STORE)
			type[in->dst] = in->dtype;
		else
			stores = 1;
		/*
		 * A computed register whose only use is the STORE right after
		 * it can be computed in the operand's memory (when that is
		 * contiguous and in the register format): one pass fewer.
		 */
		if (forwards(ops, insts, num_insts, rank, plan, i)) {
			plan->inst[i].flags |= EW_FWD;
			fwd++;
		}
		if (in->op == XRT_CS_EW_CONST && only)
			plan->inst[i].flags |= EW_ONCE;
		/* A broadcast operand reads one value per row. */
		if (in->op == XRT_CS_EW_LOAD && only && rank &&
		    plan->stride[in->a] == 0 &&
		    ops[in->a].flags == XRT_CS_OPERAND_IN &&
		    !among(out, num_out, ops[in->a].slot))
			plan->inst[i].flags |= EW_UNIFORM;
	}
	/* es >= 1: a command has operands, each of a validated type */
	plan->prefetch = stores && n > EW_CACHED_BYTES / es;
	plan->stream = fwd && n > EW_STREAM_BYTES / es;
	/* a forwarded result is stored, and streamed ones are past the caches: prefetched too */
	BUILD_BUG_ON(EW_STREAM_BYTES <= EW_CACHED_BYTES);
	plan->defer = plan->stream && fwd == 1 && unary;
}

void ew_binary_of(u32 fn, u32 t, void *d, const void *a, const void *b, u32 n)
{
	switch (ew_class_of(t)) {
	case EW_INT:
		ew_int_binary(fn, t, d, a, b, n);
		break;
	case EW_F32:
		ew_f32_binary(fn, d, a, b, n);
		ew_round_half(t, d, n);
		break;
	case EW_F64:
		ew_f64_binary(fn, d, a, b, n);
		break;
	case EW_C64:
		ew_c64_binary(fn, d, a, b, n);
		break;
	default:
		ew_c128_binary(fn, d, a, b, n);
		break;
	}
}
