// SPDX-License-Identifier: MIT
/*
 * send and recv within one program, rewritten as they are read: a recv
 * gives the operand of the send on its channel before it in the same
 * computation, which is what the pair transfers when both ends are this
 * program's.  As XLA prints them:
 *
 *   s  = (T, u32[], token[]) send(x, tok), channel_id=N   tuple(x, 0, tok)
 *   sd = token[] send-done(s), channel_id=N              get-tuple-element(s), index=2
 *   r  = (T, u32[], token[]) recv(tok), channel_id=N      tuple(x, 0, tok)
 *   rd = (T, token[]) recv-done(r), channel_id=N          tuple(x, tok)
 *
 * (tokens read as empty tuples).  Host transfers (is_host_transfer=true,
 * refused where the attribute is read), a recv without a send before
 * it, and two sends on one channel are refused.
 */
#include <stdio.h>
#include <string.h>

#include "hlo_parse.h"

static bool is_token(const struct xrt_shape *s)
{
	return xrt_shape_is_tuple(s) && !s->tuple_count;
}

/* (T, u32[], token[]) with T an array. */
static bool transfer_shape(const struct xrt_shape *s)
{
	return xrt_shape_is_tuple(s) && s->tuple_count == 3 && !xrt_shape_is_tuple(&s->tuple[0]) &&
	       !xrt_shape_is_tuple(&s->tuple[1]) && s->tuple[1].dtype == XRT_U32 &&
	       !s->tuple[1].rank && is_token(&s->tuple[2]);
}

static bool same_array(const struct xrt_shape *a, const struct xrt_shape *b)
{
	return !xrt_shape_is_tuple(a) && xrt_shape_compatible(a, b);
}

static uint32_t zero_u32(struct hp_emit *e, void *ctx)
{
	uint8_t *d;

	(void)ctx;
	return hp_emit_const(e, XRT_U32, 0, NULL, &d);
}

/* The instruction just read becomes tuple(@x, 0, @tok). */
static int become_transfer(struct hp *p, const struct ir_instr *in, uint32_t x, uint32_t tok)
{
	struct hp_emit e = { .p = p, .what = "zero" };
	uint32_t ops[3];

	snprintf(e.base, sizeof(e.base), "%.60s", in->name);
	ops[0] = x;
	ops[2] = tok;
	return hp_emit_twice(&e, zero_u32, NULL, &ops[1]) || hp_become(p, XRT_OP_TUPLE, ops, 3);
}

/* The send (or recv) on @channel read before in this computation, or NULL. */
static const struct ir_instr *end_of(struct hp *p, int64_t channel, bool is_send)
{
	uint32_t i;

	for (i = 0; i < p->num_chans; i++)
		if (p->chans[i].channel == channel && p->chans[i].send == is_send)
			return &p->cur->instrs[p->chans[i].at];
	return NULL;
}

/* Files the send or recv just rewritten under @channel. */
static int file_end(struct hp *p, int64_t channel, bool is_send)
{
	if (hp_grow(p, (void **)&p->chans, &p->chans_cap, p->num_chans + 1, sizeof(*p->chans)))
		return -1;
	p->chans[p->num_chans].channel = channel;
	p->chans[p->num_chans].send = is_send;
	p->chans[p->num_chans++].at = p->cur->num_instrs - 1;
	return 0;
}

static int send(struct hp *p, const struct ir_instr *in, int64_t ch)
{
	const struct xrt_shape *x;

	if (in->num_operands != 2 || !is_token(&p->cur->instrs[in->operands[1]].shape))
		return hp_fail(p, "%s: send takes a value and a token", in->name);
	x = &p->cur->instrs[in->operands[0]].shape;
	if (!transfer_shape(&in->shape) || !same_array(&in->shape.tuple[0], x))
		return hp_fail(p, "%s: send gives (T, u32[], token[]) of its operand's T, an array",
			       in->name);
	if (end_of(p, ch, true))
		return hp_fail(p, "%s: a second send on channel %lld", in->name, (long long)ch);
	return become_transfer(p, in, in->operands[0], in->operands[1]) || file_end(p, ch, true);
}

static int recv(struct hp *p, const struct ir_instr *in, int64_t ch)
{
	const struct ir_instr *s = end_of(p, ch, true);

	if (end_of(p, ch, false))
		return hp_fail(p, "%s: a second recv on channel %lld", in->name, (long long)ch);
	if (in->num_operands != 1 || !is_token(&p->cur->instrs[in->operands[0]].shape))
		return hp_fail(p, "%s: recv takes a token", in->name);
	if (!s)
		return hp_fail(p, "%s: recv on channel %lld has no send before it in its "
			       "computation (a pair within one program)", in->name, (long long)ch);
	if (!transfer_shape(&in->shape) || !same_array(&in->shape.tuple[0], &s->shape.tuple[0]))
		return hp_fail(p, "%s: recv gives (T, u32[], token[]) of its send's T", in->name);
	return become_transfer(p, in, s->operands[0], in->operands[0]) || file_end(p, ch, false);
}

/* send-done and recv-done: of a send or recv (a tuple now) on the same channel. */
static int done(struct hp *p, const struct ir_instr *in, int64_t ch, bool is_send)
{
	const struct ir_instr *t;
	uint32_t ops[2];

	if (in->num_operands != 1)
		return hp_fail(p, "%s: %s takes one operand", in->name, p->pseudo);
	t = &p->cur->instrs[in->operands[0]];
	if (t != end_of(p, ch, is_send))
		return hp_fail(p, "%s: %s takes the %s of channel %lld", in->name, p->pseudo,
			       is_send ? "send" : "recv", (long long)ch);
	if (is_send) {
		if (!is_token(&in->shape))
			return hp_fail(p, "%s: send-done gives token[]", in->name);
		return hp_become(p, XRT_OP_TUPLE, NULL, 0);	/* a token */
	}
	if (!xrt_shape_is_tuple(&in->shape) || in->shape.tuple_count != 2 ||
	    !same_array(&in->shape.tuple[0], &t->shape.tuple[0]) ||
	    !is_token(&in->shape.tuple[1]))
		return hp_fail(p, "%s: recv-done gives (T, token[]) of its recv's T", in->name);
	ops[0] = t->operands[0];
	ops[1] = t->operands[2];
	return hp_become(p, XRT_OP_TUPLE, ops, 2);
}

int hlo_unsendrecv(struct hp *p)
{
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1];
	int64_t ch = hp_one_int(in, IR_ATTR_CHANNEL_ID);

	if (ch < 0)
		return hp_fail(p, "%s: %s needs a channel_id", in->name, p->pseudo);
	if (!strcmp(p->pseudo, "send"))
		return send(p, in, ch);
	if (!strcmp(p->pseudo, "recv"))
		return recv(p, in, ch);
	return done(p, in, ch, !strcmp(p->pseudo, "send-done"));
}
