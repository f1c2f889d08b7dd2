/* SPDX-License-Identifier: MIT */
/*
 * Opcode lookups and classes, for the front end.
 */
#ifndef XRT_IR_OPCODE_H
#define XRT_IR_OPCODE_H

#include <stdbool.h>
#include <stddef.h>

#include <xrt/opcode.h>

/* The opcode named @name (@len bytes), or XRT_OP_COUNT. */
enum xrt_opcode xrt_opcode_from_name(const char *name, size_t len);
bool xrt_opcode_is_unary(enum xrt_opcode op);
bool xrt_opcode_is_binary(enum xrt_opcode op);
/* all-reduce .. partition-id: reads which replica and partition it runs on */
bool xrt_opcode_is_collective(enum xrt_opcode op);

#endif /* XRT_IR_OPCODE_H */
