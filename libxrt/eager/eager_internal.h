/* SPDX-License-Identifier: MIT */
/*
 * The eager API's objects and the op registry's shape, shared by the
 * files of libxrt/eager/.
 */
#ifndef XRT_EAGER_INTERNAL_H
#define XRT_EAGER_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include <xrt/builder.h>
#include <xrt/eager.h>
#include <xrt/shape.h>

#include "device/device.h"

#define EAGER_MAX_DEVICES	8
#define EAGER_MAX_INPUTS	64	/* inputs of one op, lists included */
#define EAGER_MAX_OUTPUTS	8
#define EAGER_MAX_ATTRS		8
#define EAGER_MAX_LIST		64	/* entries of a list attribute */
#define EAGER_MAX_DEF_INPUTS	8	/* declared inputs (function arguments) */

struct kernel_cache;

/*
 * Freed tensors kept for reuse, by size class with the header: 128 bytes
 * to 4 KiB by doubling, then four classes per octave up to 256 MiB (a
 * block is at most a quarter larger than asked).  An output costs no
 * malloc, and a large one no page faults, in a steady loop.  Big blocks
 * are kept while all kept blocks stay under POOL_BUDGET bytes.
 */
#define POOL_SMALL	6
#define POOL_CLASSES	(POOL_SMALL + 4 * 16)
#define POOL_KEEP	32
#define POOL_BUDGET	(64ull << 20)
struct tensor_pool {
	atomic_flag lock;
	uint64_t bytes;			/* in kept blocks */
	uint32_t n[POOL_CLASSES];
	void *blocks[POOL_CLASSES][POOL_KEEP];
};

struct xrt_eager_context {
	const struct xrt_allocator *a;
	char devices[EAGER_MAX_DEVICES][32];
	/*
	 * Devices other than host:0 (NULL for it: its tensors live in this
	 * process's memory, the context's own), and a queue on each.
	 */
	struct xdev *dev[EAGER_MAX_DEVICES];
	struct xdev_queue *queue[EAGER_MAX_DEVICES];
	/*
	 * host:0, where device 0's ops run: an ordinary queue of its own,
	 * made with the context, on the context's threads.
	 */
	struct xdev *host;
	struct xdev_queue *host_queue;
	uint32_t num_devices;
	uint32_t default_device;
	enum xrt_placement placement;
	pthread_mutex_t queue_lock;	/* guards making @queue */
	struct kernel_cache *kernels;
	struct tensor_pool pool_blocks;
	pthread_mutex_t fn_lock;	/* guards @functions */
	struct eager_fn *functions;	/* registered functions, newest first */
};

struct xrt_tensor {
	atomic_uint refs;
	xrt_eager_context *c;
	uint32_t device;
	enum xrt_dtype dtype;
	uint32_t rank;
	int64_t dims[XRT_MAX_RANK];
	uint64_t bytes;
	void *data;			/* 64-byte aligned; on a device: its mapping, or NULL */
	struct xdev_buf buf;		/* on a device other than host:0: the buffer */
	/*
	 * On a device the host does not map (cuda): the values read into host
	 * memory the first time they are needed (a constant input, a resolve).
	 * Tensors never change once made, so the copy stays right.
	 */
	_Atomic(void *) host_copy;
	bool inline_data;		/* @data follows this struct, one block */
	int8_t pool_class;		/* the block's size class, or -1 */
	void (*deleter)(void *data, void *arg);	/* wrapped memory: called, if set */
	void *arg;
	struct eager_var *var;		/* a resource handle's variable; dtype INVALID */
};

/*
 * An input of an op: its element type comes from attribute @type_attr
 * (or is @fixed); with @number_attr it is a list of that many tensors.
 * A @constant input (TensorFlow's host-memory inputs: axes, shapes,
 * permutations) is read when the kernel is built: its value is part of
 * the kernel's key and the program has no parameter for it.
 */
struct input_def {
	const char *name;
	const char *type_attr;
	enum xrt_dtype fixed;
	const char *number_attr;
	bool constant;
};

/* An attribute; @types limits a TYPE attribute (bit per xrt_dtype, 0: any). */
struct attr_def {
	const char *name;
	enum xrt_attr_type type;
	bool is_list;
	bool has_default;
	int64_t def;		/* INT, BOOL, TYPE defaults; FLOAT as bits */
	uint32_t types;
};

struct lowering;

/* A registered op: its signature and how it becomes IR. */
struct op_def {
	const char *name;
	struct input_def inputs[EAGER_MAX_DEF_INPUTS];
	uint32_t num_inputs;
	struct attr_def attrs[EAGER_MAX_ATTRS];
	uint32_t num_attrs;
	uint32_t num_outputs;		/* 0: the lowering decides */
	/* Checks shapes and attributes and builds the outputs from the inputs. */
	xrt_status *(*lower)(struct lowering *l);
	int code;		/* a per-op constant the lowering may use */
	/* Or, for stateful ops (variables), runs the op directly. */
	xrt_status *(*exec)(xrt_op *op, xrt_tensor **outs, uint32_t *num_outs);
};

/* A value set for an attribute; lists, shapes and strings own their arrays. */
struct attr_val {
	bool set;
	int64_t i;		/* INT, BOOL, TYPE, FLOAT bits; SHAPE: the rank */
	int64_t *list;		/* list entries, or SHAPE dims */
	uint32_t n;
	char *s;		/* STRING, FUNC */
	xrt_literal *tensor;	/* TENSOR */
	void **items;		/* lists of strings (char *), shapes (int64_t: rank,
				 * dims) or tensors (xrt_literal *), @n of them */
	enum xrt_attr_type items_type;
	uint64_t hash;
};

struct xrt_op {
	xrt_eager_context *c;
	const struct op_def *def;
	int32_t device;			/* -1: decided at execute */
	struct attr_val attrs[EAGER_MAX_ATTRS];
	xrt_tensor *inputs[EAGER_MAX_INPUTS];
	uint64_t input_hash[EAGER_MAX_INPUTS];
	bool input_constant[EAGER_MAX_INPUTS];
	uint32_t num_inputs;
	uint32_t next_def_input;	/* the def input the next add fills */
	int8_t type_attr[EAGER_MAX_DEF_INPUTS];	/* per def input: its type attribute's index */
	int8_t number_attr[EAGER_MAX_DEF_INPUTS];	/* per def input: its length attribute's */
	bool key_valid;
	uint32_t key_device;
	uint64_t key[2];
	struct centry *entry;		/* the kernel of @key, referenced */
	/* @entry's kernel's result leaves and their bytes, found with it */
	uint32_t num_outs;
	const struct xrt_shape *out_shape[EAGER_MAX_OUTPUTS];
	uint64_t out_bytes[EAGER_MAX_OUTPUTS];
	uint64_t runs;			/* executions, for the random ops' seeds */
	/*
	 * While a function taking variables runs: each resource input's
	 * value (the kernel's parameter), and the variables, locked.
	 */
	xrt_tensor *var_values[EAGER_MAX_DEF_INPUTS];
	struct eager_var *locked[EAGER_MAX_DEF_INPUTS];
	uint32_t num_locked;
};

/*
 * What a lowering sees: the op, a builder with a parameter per input
 * (none for constant inputs: read them with eager_const_ints()).
 */
struct lowering {
	const struct xrt_op *op;
	xrt_builder *b;
	xrt_value in[EAGER_MAX_INPUTS];
	const xrt_tensor *consts[EAGER_MAX_INPUTS];	/* the constant inputs' values */
	uint32_t num_in;
	xrt_value out[EAGER_MAX_OUTPUTS];
	uint32_t num_out;
	const struct xrt_allocator *a;
};

/* eager_registry.c */
const struct op_def *eager_find_op(const char *name);
int eager_attr_index(const struct op_def *d, const char *name);

/* eager_op.c: attribute values as a lowering reads them (defaults applied). */
int64_t eager_attr_int(const struct xrt_op *op, const char *name);
const struct attr_val *eager_attr(const struct xrt_op *op, const char *name);
void eager_attr_clear(const struct xrt_allocator *a, struct attr_val *v);
/* The input type an op expects for def input @i, or XRT_INVALID if unset. */
enum xrt_dtype eager_input_type(const struct xrt_op *op, uint32_t i);
/* How many tensors def input @i takes (its list length, or 1). */
uint32_t eager_input_count(const struct xrt_op *op, uint32_t i);

/* eager_lower_*.c: an error naming the op. */
xrt_status *eager_op_error(const struct lowering *l, enum xrt_code code,
			   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/*
 * The values of constant input @i as integers (at most @max); their count,
 * or an error naming the op and the input.
 */
/* @t's values in host memory: its data, or a copy read from its device once. */
xrt_status *eager_tensor_host(const xrt_tensor *t, const void **out);
/* The same once eager_tensor_host() has succeeded (NULL before). */
const void *eager_tensor_values(const xrt_tensor *t);
xrt_status *eager_const_ints(const struct lowering *l, uint32_t i, int64_t *out, uint32_t max,
			     uint32_t *n);
/* The value of scalar constant input @i as a double. */
xrt_status *eager_const_scalar(const struct lowering *l, uint32_t i, double *out);

/* @v spread to @rank dims @dims (numpy's rule: trailing dims align). */
xrt_value eager_spread(struct lowering *l, xrt_value v, uint32_t rank, const int64_t *dims);
/* A scalar of @t: 0, 1, its lowest (2) or highest (3) value. */
xrt_value eager_scalar(struct lowering *l, enum xrt_dtype t, int which);
/* A computation (a, b) -> a @op b over scalars of @t (a name per opcode). */
xrt_comp eager_reducer(struct lowering *l, enum xrt_opcode op, enum xrt_dtype t);
/* A constant @v of @x's type and shape; a scalar @v of type @t. */
xrt_value eager_fill_like(struct lowering *l, xrt_value x, double v);
xrt_value eager_scalar_of(struct lowering *l, enum xrt_dtype t, double v);
/* @x and @y broadcast to one shape, numpy's rule. */
xrt_status *eager_broadcast(struct lowering *l, xrt_value *x, xrt_value *y);

/* The lowerings (eager_lower.c, eager_lower_nn.c). */
xrt_status *eager_lower_unary(struct lowering *l);
xrt_status *eager_lower_identity(struct lowering *l);
xrt_status *eager_lower_activation(struct lowering *l);
xrt_status *eager_lower_binary(struct lowering *l);
xrt_status *eager_lower_compare(struct lowering *l);
xrt_status *eager_lower_cast(struct lowering *l);
xrt_status *eager_lower_select(struct lowering *l);
xrt_status *eager_lower_matmul(struct lowering *l);
xrt_status *eager_lower_batch_matmul(struct lowering *l);
xrt_status *eager_lower_bias_add(struct lowering *l);
xrt_status *eager_lower_squeeze(struct lowering *l);
xrt_status *eager_lower_reduce(struct lowering *l);
xrt_status *eager_lower_softmax(struct lowering *l);
xrt_status *eager_lower_arg(struct lowering *l);
xrt_status *eager_lower_reshape(struct lowering *l);
xrt_status *eager_lower_transpose(struct lowering *l);
xrt_status *eager_lower_expand_dims(struct lowering *l);
xrt_status *eager_lower_concat(struct lowering *l);
xrt_status *eager_lower_pack(struct lowering *l);
xrt_status *eager_lower_fill(struct lowering *l);
xrt_status *eager_lower_range(struct lowering *l);
xrt_status *eager_lower_pad(struct lowering *l);
xrt_status *eager_lower_slice(struct lowering *l);
xrt_status *eager_lower_tile(struct lowering *l);
xrt_status *eager_lower_strided_slice(struct lowering *l);
xrt_status *eager_lower_floor_divmod(struct lowering *l);
xrt_status *eager_lower_unpack(struct lowering *l);
xrt_status *eager_lower_one_hot(struct lowering *l);
xrt_status *eager_lower_gather(struct lowering *l);
xrt_status *eager_lower_conv2d(struct lowering *l);
xrt_status *eager_lower_pool(struct lowering *l);
xrt_status *eager_lower_random(struct lowering *l);

/* eager_kernels.c: the kernel cache. */
struct centry;
xrt_status *kernel_cache_create(const struct xrt_allocator *a, struct kernel_cache **out);
void kernel_cache_destroy(struct kernel_cache *k);
void kernel_cache_clear(struct kernel_cache *k);
/* @op as the one-op module its kernel compiles (the tests evaluate it too). */
xrt_status *eager_build_module(const xrt_op *op, xrt_module **out);
/* The compiled kernel of @key, with a reference for the caller, or NULL. */
struct centry *kernel_cache_find(struct kernel_cache *k, const uint64_t key[2]);
/* Compiles @op's kernel, keeps it under @op's key if there is room; a reference. */
xrt_status *kernel_cache_add(struct kernel_cache *k, xrt_op *op, struct centry **out);

/* eager_vars.c: resource variables. */
xrt_status *eager_var_handle(xrt_op *op, xrt_tensor **outs, uint32_t *n);
xrt_status *eager_var_assign(xrt_op *op, xrt_tensor **outs, uint32_t *n);
xrt_status *eager_var_assign_add(xrt_op *op, xrt_tensor **outs, uint32_t *n);
xrt_status *eager_var_read(xrt_op *op, xrt_tensor **outs, uint32_t *n);
xrt_status *eager_var_destroy(xrt_op *op, xrt_tensor **outs, uint32_t *n);
void eager_var_free(struct eager_var *v);
/*
 * Before a function taking variables runs on device @dev: locks them,
 * takes each one's value (on @dev) into op->var_values and keys the
 * kernel by it.  NOT_FOUND (destroyed), FAILED_PRECONDITION
 * (uninitialized), or nothing held.
 */
xrt_status *eager_vars_begin(xrt_op *op, uint32_t dev);
/*
 * After it ran (@st its outcome): on success stores the last @assigned of
 * the @*n outputs into the variables and drops them from @outs; unlocks.
 */
xrt_status *eager_vars_end(xrt_op *op, xrt_tensor **outs, uint32_t *n, xrt_status *st);

/* eager_function.c */
const struct op_def *eager_find_function(xrt_eager_context *c, const char *name);
/* Whether @d is a function taking variables (resource arguments). */
bool eager_fn_has_resources(const struct op_def *d);
/* Whether function @d assigns the variable of argument @arg. */
bool eager_fn_assigns(const struct op_def *d, uint32_t arg);
/* How many variables function @d assigns: its kernel's last outputs. */
uint32_t eager_fn_num_assigned(const struct op_def *d);
void eager_functions_free(xrt_eager_context *c);
xrt_status *eager_lower_function(struct lowering *l);
xrt_status *eager_lower_const(struct lowering *l);

/* eager_tensor.c */
void eager_pool_drain(xrt_eager_context *c);
/* A new tensor of array shape @s, @bytes of elements (the shape's byte size). */
xrt_status *eager_tensor_new(xrt_eager_context *c, uint32_t device, const struct xrt_shape *s,
			     uint64_t bytes, xrt_tensor **out);
int eager_find_device(const xrt_eager_context *c, const char *name);

/* eager_execute.c: the queue on device @dev (not host:0), made at its first use. */
xrt_status *eager_queue(xrt_eager_context *c, uint32_t dev, struct xdev_queue **out);

/* eager_op.c: the kernel key from the parts kept on the op. */
void eager_op_key(xrt_op *op, uint32_t device);
/* Keys input @i by @as (a variable's value) instead of what it is. */
void eager_op_rekey_input(xrt_op *op, uint32_t i, const xrt_tensor *as);

#endif /* XRT_EAGER_INTERNAL_H */
