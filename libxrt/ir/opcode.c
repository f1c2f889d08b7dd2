// SPDX-License-Identifier: MIT
/*
 * Opcode names and classes.
 */
#include <string.h>

#include "ir/opcode.h"

static const char *const names[XRT_OP_COUNT] = {
#define X(e, s) [XRT_OP_##e] = s,
	XRT_OPCODES(X)
#undef X
};

const char *xrt_opcode_name(enum xrt_opcode op)
{
	return (unsigned int)op < XRT_OP_COUNT ? names[op] : "unknown";
}

enum xrt_opcode xrt_opcode_from_name(const char *name, size_t len)
{
	int i;

	for (i = 0; i < XRT_OP_COUNT; i++) {
		if (strlen(names[i]) == len && !memcmp(names[i], name, len))
			return (enum xrt_opcode)i;
	}
	return XRT_OP_COUNT;
}

bool xrt_opcode_is_unary(enum xrt_opcode op)
{
	return op >= XRT_OP_ABS && op <= XRT_OP_IMAG;
}

bool xrt_opcode_is_binary(enum xrt_opcode op)
{
	return op >= XRT_OP_ADD && op <= XRT_OP_SHIFT_RIGHT_LOGICAL;
}

bool xrt_opcode_is_collective(enum xrt_opcode op)
{
	return op >= XRT_OP_ALL_REDUCE && op <= XRT_OP_PARTITION_ID;
}
