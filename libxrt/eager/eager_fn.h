/* SPDX-License-Identifier: MIT */
/*
 * A registered function, as registration (eager_function.c) leaves it
 * for lowering (eager_function_lower.c).
 */
#ifndef XRT_EAGER_FN_H
#define XRT_EAGER_FN_H

#include "eager_internal.h"
#include "xrt.pb-c.h"

/* Where a node input or a return comes from. */
struct ref {
	int32_t node;		/* -1: an argument */
	uint32_t index;		/* the argument, or the node's output */
};

/* Node @node's attribute @node_attr takes the function's attribute @fn_attr. */
struct placeholder {
	uint32_t node;
	int node_attr, fn_attr;
};

struct eager_fn {
	struct op_def def;	/* the function as an op */
	Xrt__FunctionDef *msg;
	struct placeholder *ph;
	uint32_t num_ph;
	bool resource[EAGER_MAX_DEF_INPUTS];	/* per argument: a variable */
	bool has_resources;			/* any of them */
	bool writes[EAGER_MAX_DEF_INPUTS];	/* ... that the body assigns */
	uint32_t num_writes;
	int32_t *after;		/* per node: the variable op it follows, or -1 */
	xrt_op **ops;		/* per node: its op, attributes set */
	struct ref **inputs;	/* per node: where each input comes from */
	xrt_tensor **consts;	/* per node: a Const node's value as a tensor */
	uint32_t *order;	/* the nodes, each after what it reads */
	struct ref *returns;
	struct eager_fn *next;
	size_t size;		/* of the definition's bytes */
	uint8_t bytes[];	/* as registered: a repeat must match them */
};

/* INVALID_ARGUMENT (or @code) naming the function and, when given, the node. */
xrt_status *eager_fn_error(xrt_eager_context *c, const Xrt__FunctionDef *m,
			   enum xrt_code code, const char *what, const char *node);
/* The variable ops a function body may hold (they act on its resource arguments). */
bool eager_fn_is_var_op(const struct op_def *d);

#endif /* XRT_EAGER_FN_H */
