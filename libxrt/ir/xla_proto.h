/* SPDX-License-Identifier: MIT */
/*
 * Reading XLA's HloModuleProto: the module is written out as HLO text
 * and read by the text reader, so that both forms go through the same
 * rules (fusions, batching dimensions, attributes, verification).  This
 * header is shared by the part that checks and orders the message
 * (xla_proto.c) and the part that writes it as text (xla_proto_text.c).
 */
#ifndef XRT_IR_XLA_PROTO_H
#define XRT_IR_XLA_PROTO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/fmtbuf.h"
#include "xla.pb-c.h"

/* An instruction or computation id and where it is. */
struct xp_id {
	int64_t id;
	uint32_t comp, instr;
};

struct xp {
	const Xla__HloModuleProto *m;
	struct xp_id *instr_ids, *comp_ids;	/* sorted by id */
	size_t ninstr_ids;
	uint32_t *order;	/* computations, callees first */
	uint32_t entry;
	char err[256];		/* the first error */
};

/* Sets the first error; returns -1. */
int xp_fail(struct xp *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The instruction with @id, or NULL. */
const struct xp_id *xp_instr(const struct xp *x, int64_t id);
/* The computation with @id, or NULL. */
const struct xp_id *xp_comp(const struct xp *x, int64_t id);

/*
 * Writes the module as HLO text into @f, computations in x->order; 0,
 * or -1 with x->err saying what cannot be written.
 */
int xp_write_module(struct xp *x, struct fmtbuf *f);

#endif /* XRT_IR_XLA_PROTO_H */
