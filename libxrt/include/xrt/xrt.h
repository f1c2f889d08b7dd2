/* SPDX-License-Identifier: MIT */
/*
 * The XRT API: sessions on a device, allocations behind handles.
 *
 * A session is bound to one device and owns a table of handles; a handle
 * names an allocation (an array or a tuple tree of them, resident on the
 * device) and means nothing to another session.  Handles are 64-bit and
 * never reused within a session: a released or unknown one gives
 * NOT_FOUND, never a crash.  Sessions may be used from several threads at
 * once.  A compilation handle names an entry of the process's compile
 * cache; executing it on allocation handles gives a new allocation.
 */
#ifndef XRT_XRT_H
#define XRT_XRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/api.h>
#include <xrt/ir.h>
#include <xrt/literal.h>
#include <xrt/shape.h>
#include <xrt/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/** typedef xrt_session - a session on one device (opaque) */
typedef struct xrt_session xrt_session;

/** typedef xrt_handle - an allocation (or, later, a compilation) of a session */
typedef int64_t xrt_handle;

/**
 * struct xrt_session_options - how a session is made
 * @device: a device's name ("host:0", "accel:1"; a kind alone is its
 *          device 0) or an ordinal in the device list ("0"); NULL: the
 *          XRT_DEVICE environment variable, else "host:0"
 * @memory_limit: bytes this session may hold on the device at once
 *                (0: no limit of its own); above it, RESOURCE_EXHAUSTED
 * @no_blas: host:0 computes DOT with the engine's own kernel, never
 *           its AVX-512 one or OpenBLAS, so that its results are those
 *           of the accel device bit for bit (other devices ignore it)
 * @host_devices: 0, or how many host devices exist at least (host:0 to
 *                host:N-1, at most XRT_MAX_HOST_DEVICES): virtual devices
 *                of this process for replicated runs, each computing on
 *                its share of the CPUs.  Without it, XRT_HOST_DEVICES
 *                says how many (1 when unset); the count only grows, and
 *                a device keeps the share it had when first opened.
 */
struct xrt_session_options {
	const char *device;
	uint64_t memory_limit;
	bool no_blas;
	uint32_t host_devices;
};

/** XRT_MAX_HOST_DEVICES - the most host devices a process may have */
#define XRT_MAX_HOST_DEVICES 64

/**
 * xrt_session_create() - open a session on a device
 * @options: NULL for the defaults
 * @alloc: allocator for everything the session holds (NULL: system)
 * @out: receives the session
 *
 * Return: NULL, NOT_FOUND naming a device that is not there (and the
 * ones that are), INVALID_ARGUMENT for a malformed name, or
 * RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_session_create(const struct xrt_session_options *options,
				       const struct xrt_allocator *alloc, xrt_session **out);

/**
 * xrt_session_destroy() - release every handle and close the session
 * @s: a session, or NULL
 *
 * No other call may be using @s.
 */
XRT_API void xrt_session_destroy(xrt_session *s);

/**
 * xrt_session_device() - the name of the session's device ("host:0")
 * @s: a session
 */
XRT_API const char *xrt_session_device(const xrt_session *s);

/**
 * xrt_session_memory_in_use() - bytes of device memory the session holds
 * @s: a session
 */
XRT_API uint64_t xrt_session_memory_in_use(const xrt_session *s);

/**
 * xrt_allocate() - copy a literal onto the device
 * @s: a session
 * @value: an array or tuple literal; its layouts are kept
 * @out: receives the allocation's handle
 *
 * Return: NULL, INVALID_ARGUMENT (NULL arguments), or RESOURCE_EXHAUSTED
 * (host memory, or the session's memory limit).
 */
XRT_API xrt_status *xrt_allocate(xrt_session *s, const xrt_literal *value, xrt_handle *out);

/**
 * xrt_allocate_data() - copy raw host data of an array shape onto the device
 * @s: a session
 * @shape: an array shape; @data is in its layout
 * @data: xrt_shape_byte_size(@shape) bytes
 * @size: their number, checked against the shape
 * @out: receives the allocation's handle
 *
 * Return: NULL, INVALID_ARGUMENT (a tuple shape, a size that does not
 * match, NULL arguments), or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_allocate_data(xrt_session *s, const struct xrt_shape *shape,
				      const void *data, size_t size, xrt_handle *out);

/**
 * xrt_allocate_uninitialized() - room for a value of a shape, contents unset
 * @s: a session
 * @shape: any valid shape, tuples included
 * @out: receives the allocation's handle
 *
 * Return: NULL, INVALID_ARGUMENT, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_allocate_uninitialized(xrt_session *s, const struct xrt_shape *shape,
					       xrt_handle *out);

/**
 * xrt_write_literal() - overwrite an allocation's contents in place
 * @s: a session
 * @h: an allocation
 * @value: a literal of the allocation's shape (layouts may differ)
 *
 * Every handle sharing the buffers (sub-tuples, tuples made of it) sees
 * the new values.
 *
 * Return: NULL, NOT_FOUND, or INVALID_ARGUMENT when the shapes differ
 * (both named).
 */
XRT_API xrt_status *xrt_write_literal(xrt_session *s, xrt_handle h, const xrt_literal *value);

/**
 * xrt_read_literal() - copy an allocation back to the host
 * @s: a session
 * @h: an allocation
 * @release: release @h once read; on failure @h stays
 * @out: receives the literal, in the allocation's layouts
 *
 * Return: NULL, NOT_FOUND, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_read_literal(xrt_session *s, xrt_handle h, bool release,
				     xrt_literal **out);

/**
 * xrt_read_data() - copy an array allocation's bytes to host memory
 * @s: a session
 * @h: an array allocation
 * @release: release @h once read; on failure @h stays
 * @dst: where to put xrt_shape_byte_size() bytes, in its layout
 * @size: room at @dst, checked
 *
 * Return: NULL, NOT_FOUND, or INVALID_ARGUMENT (a tuple, a size that
 * does not match).
 */
XRT_API xrt_status *xrt_read_data(xrt_session *s, xrt_handle h, bool release, void *dst,
				  size_t size);

/**
 * xrt_allocation_shape() - the shape of an allocation
 * @s: a session
 * @h: an allocation
 * @alloc: allocator for the copy (NULL: system)
 * @out: receives a copy; release it with xrt_shape_deinit()
 *
 * Return: NULL, NOT_FOUND, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_allocation_shape(xrt_session *s, xrt_handle h,
					 const struct xrt_allocator *alloc, struct xrt_shape *out);

/**
 * xrt_sub_tuple() - a new handle on an element of a tuple allocation
 * @s: a session
 * @h: a tuple allocation
 * @index: the path of element numbers, outermost first
 * @n: its length, at least 1
 * @release: release @h afterwards (the seed's SubTupleAndRelease: the
 *           element moves out, the rest of @h goes)
 * @out: receives the element's handle; it shares the buffers (aliases)
 *
 * Return: NULL, NOT_FOUND, or INVALID_ARGUMENT naming the step of
 * @index that is out of range or indexes an array.
 */
XRT_API xrt_status *xrt_sub_tuple(xrt_session *s, xrt_handle h, const int64_t *index,
				  uint32_t n, bool release, xrt_handle *out);

/**
 * struct xrt_tuple_node - how to build one level of a tuple (the seed's
 *                         TupleNode)
 * @input_index: for a leaf of the description: which input allocation
 *               goes here (shared, not copied)
 * @release_input: for such a leaf: release that input once the tuple is
 *                 made
 * @children: the elements, when this node is a tuple
 * @num_children: their number; a node with no @children is a leaf (an
 *                array of none is an error: an empty tuple)
 */
struct xrt_tuple_node {
	int64_t input_index;
	bool release_input;
	const struct xrt_tuple_node *children;
	uint32_t num_children;
};

/**
 * xrt_make_tuple() - a new allocation built from existing ones
 * @s: a session
 * @desc: the description; its root must be a tuple or a leaf
 * @inputs: the input handles the leaves index
 * @num_inputs: their number
 * @out: receives the new allocation's handle
 *
 * An input used more than once is shared each time; one marked released
 * in one place and used again elsewhere is an error, as in the seed.
 * Nothing is released unless the whole tuple is made.
 *
 * Return: NULL, NOT_FOUND, INVALID_ARGUMENT (an index out of range, a
 * released repeated input, a tree too deep, an empty description), or
 * RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_make_tuple(xrt_session *s, const struct xrt_tuple_node *desc,
				   const xrt_handle *inputs, uint32_t num_inputs,
				   xrt_handle *out);

/**
 * xrt_transfer() - copy an allocation into another session
 * @from: the session holding @h
 * @h: an allocation handle (a tuple copies whole)
 * @to: the session (any device) that receives the copy
 * @out: receives the copy's handle in @to
 *
 * The copy goes through host memory, or, between two accel devices,
 * through PRIME: the receiving device imports the buffer and copies it
 * itself.  @h stays as it was; release it to move rather than copy.
 *
 * Return: NULL, NOT_FOUND (@h), the error of the run computing @h,
 * RESOURCE_EXHAUSTED (room on @to's device or under its limit).
 */
XRT_API xrt_status *xrt_transfer(xrt_session *from, xrt_handle h, xrt_session *to,
				 xrt_handle *out);

/**
 * xrt_release_allocations() - release allocation handles
 * @s: a session
 * @h: @n handles
 * @n: their number
 *
 * Buffers shared with other live handles stay.  Every known handle is
 * released even when another is not known.
 *
 * Return: NULL, or NOT_FOUND naming the first unknown handle.
 */
XRT_API xrt_status *xrt_release_allocations(xrt_session *s, const xrt_handle *h, uint32_t n);

/**
 * xrt_release_all_allocations() - release every allocation of the session
 * @s: a session
 */
XRT_API void xrt_release_all_allocations(xrt_session *s);

/**
 * struct xrt_program_shape - what a compiled program takes and gives
 * @num_params: parameters
 * @params: their shapes, layouts included
 * @result: the result's shape
 * @alloc: what the arrays were allocated with
 */
struct xrt_program_shape {
	uint32_t num_params;
	struct xrt_shape *params;
	struct xrt_shape result;
	const struct xrt_allocator *alloc;
};

/** xrt_program_shape_deinit() - free what a program shape holds */
XRT_API void xrt_program_shape_deinit(struct xrt_program_shape *ps);

/**
 * xrt_compile_module() - compile a module for the session's device
 * @s: a session
 * @m: a module (verified here)
 * @out: receives the compilation handle
 *
 * The process's compile cache is keyed by the module's fingerprint and
 * the device kind: a module compiled before (by any session) is not
 * compiled again, threads compiling one module at once compile it once,
 * and a module that failed to compile fails again at once with the same
 * error.
 *
 * Return: NULL, INVALID_ARGUMENT (the module does not verify),
 * UNIMPLEMENTED naming the instruction the compiler cannot lower, or
 * RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_compile_module(xrt_session *s, const xrt_module *m, xrt_handle *out);

/**
 * xrt_compile_hlo() - compile HLO text for the session's device
 * @s: a session
 * @text: the module's text (need not be NUL-terminated)
 * @len: its length
 * @out: receives the compilation handle
 *
 * Return: as xrt_compile_module(), INVALID_ARGUMENT also for text that
 * does not parse (line and column named).
 */
XRT_API xrt_status *xrt_compile_hlo(xrt_session *s, const char *text, size_t len,
				    xrt_handle *out);

/**
 * xrt_compile_xla_proto() - compile a module XLA serialized
 * @s: a session
 * @data: an HloModuleProto, HloProto or HloSnapshot (told apart by content)
 * @len: its length
 * @out: receives the compilation handle
 *
 * The bytes JAX's ``as_serialized_hlo_module_proto()`` and XLA's dumps
 * (``--xla_dump_hlo_as_proto``) give; read by xrt_hlo_parse_xla_proto().
 *
 * Return: as xrt_compile_module(), INVALID_ARGUMENT also for a message
 * that does not decode or a module that cannot be read (the computation
 * and instruction named).
 */
XRT_API xrt_status *xrt_compile_xla_proto(xrt_session *s, const void *data, size_t len,
					  xrt_handle *out);

/**
 * xrt_compilation_shape() - the program shape of a compilation
 * @s: a session
 * @h: a compilation handle
 * @alloc: allocator for the copy (NULL: system)
 * @out: receives it; release it with xrt_program_shape_deinit()
 *
 * Return: NULL, NOT_FOUND, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_compilation_shape(xrt_session *s, xrt_handle h,
					  const struct xrt_allocator *alloc,
					  struct xrt_program_shape *out);

/**
 * xrt_release_compilations() - release compilation handles
 * @s: a session
 * @h: @n handles
 * @n: their number
 *
 * The cache keeps the compiled program (until evicted).
 *
 * Return: NULL, or NOT_FOUND naming the first unknown handle (the known
 * ones are released).
 */
XRT_API xrt_status *xrt_release_compilations(xrt_session *s, const xrt_handle *h, uint32_t n);

/**
 * typedef xrt_cancel - a flag that stops the runs watching it
 *
 * Made with xrt_cancel_create(), raised from any thread with
 * xrt_cancel_request() (a signal handler included: it only stores), put
 * in the execution config of the runs it should stop.  A run sees it at
 * its next check (between commands, at every loop iteration) and fails
 * with CANCELLED naming where it was; the session goes on.  It stays
 * raised until xrt_cancel_reset().
 */
typedef struct xrt_cancel xrt_cancel;

/** xrt_cancel_create() - a new flag, not raised: NULL or RESOURCE_EXHAUSTED */
XRT_API xrt_status *xrt_cancel_create(xrt_cancel **out);
/** xrt_cancel_request() - raise the flag (NULL: nothing) */
XRT_API void xrt_cancel_request(xrt_cancel *c);
/** xrt_cancel_reset() - lower it again, for the next runs */
XRT_API void xrt_cancel_reset(xrt_cancel *c);
/** xrt_cancel_destroy() - drop it (NULL: nothing); an asynchronous run watching it keeps it */
XRT_API void xrt_cancel_destroy(xrt_cancel *c);

/**
 * struct xrt_execution_config - how one execution runs (the seed's
 *                               ExecutionConfig, and how long it may)
 * @device_ordinal: must be the session device's ordinal (0)
 * @rng_seed: the seed of the program's random numbers; 0 picks a fresh
 *            odd seed for each run
 * @release_inputs: release the argument handles after a successful run
 * @release_compilation: release the compilation handle after it
 * @timeout_ns: the run fails with DEADLINE_EXCEEDED once it has run this
 *              long (0: no limit); checked between commands and at every
 *              loop iteration, so a command already running finishes
 * @max_iterations: every execution of every while loop may run this many
 *                  iterations (0: no limit); one more fails the run with
 *                  DEADLINE_EXCEEDED naming the loop, as the reference
 *                  evaluator counts
 * @cancel: NULL, or a flag that cancels the run when raised (CANCELLED)
 *
 * Every device keeps all three: the host and staged after every
 * command, cuda at its host-side jumps, accel in the driver (the
 * deadline and the loops travel with the job; the cancel stops the
 * session queue's jobs, the queue kept).
 */
struct xrt_execution_config {
	int32_t device_ordinal;
	uint32_t rng_seed;
	bool release_inputs;
	bool release_compilation;
	uint64_t timeout_ns;
	uint64_t max_iterations;
	xrt_cancel *cancel;
};

/**
 * xrt_execute() - run a compiled program on allocations
 * @s: a session
 * @compilation: a compilation handle
 * @args: one allocation handle per parameter
 * @num_args: their number
 * @config: NULL for the defaults (all zero)
 * @out: receives the result's allocation handle
 *
 * Arguments are checked against the program shape first: their number,
 * then each one's element type and dimensions, the parameter named
 * (layouts may differ; such an argument is relaid out for the run).
 *
 * Return: NULL, NOT_FOUND (a handle), INVALID_ARGUMENT (the arguments,
 * the device ordinal), RESOURCE_EXHAUSTED, or the run's error.
 */
XRT_API xrt_status *xrt_execute(xrt_session *s, xrt_handle compilation, const xrt_handle *args,
				uint32_t num_args, const struct xrt_execution_config *config,
				xrt_handle *out);

/**
 * struct xrt_replicated_config - how a replicated execution runs
 * @base: as for xrt_execute(): the seed (the same on every device; 0
 *        picks one fresh seed for all), the timeout, iteration bound and
 *        cancel flag (for every device's run and every wait at a
 *        collective), and release_inputs and release_compilation (every
 *        device's, after a successful run); device_ordinal must be 0
 * @device_assignment: NULL, or for each device d = replica x partitions +
 *                     partition the index of the session it runs in;
 *                     NULL runs device d in session d.  Two devices may
 *                     not share a session.  In a distributed run, the
 *                     index is a global device id (see
 *                     xrt_distributed_init())
 * @this_process_only: a run of this process's sessions alone, even when
 *                     the process group has several processes
 */
struct xrt_replicated_config {
	struct xrt_execution_config base;
	const uint32_t *device_assignment;
	bool this_process_only;
};

/**
 * xrt_execute_replicated() - run a program of several replicas and
 *                            partitions on as many devices
 * @sessions: the sessions the devices run in, each on its device
 * @num_sessions: their number
 * @compilations: per device d (replica x partitions + partition), the
 *                program's compilation handle in d's session; device 0's
 *                says how many devices there are (its module's
 *                replica_count x num_partitions), and every one must be
 *                of as many
 * @args: per device, @num_args allocation handles of its session:
 *        device d's argument k is @args[d x @num_args + k]
 * @num_args: the program's parameters
 * @config: NULL for the defaults
 * @out: per device, receives its result's handle, in its session
 *
 * The devices run together, each in a thread, and meet at every
 * collective (in-process, reading one another's buffers in place).  A
 * device that fails makes the others fail (CANCELLED) rather than wait;
 * devices that wait at different collectives, or for one that ended,
 * fail with FAILED_PRECONDITION; no wait outlives the timeout.  For now
 * the sessions must be on host devices (see @host_devices of struct
 * xrt_session_options), accel devices, whose jobs stop at each
 * collective for the runtime to perform it on their mapped buffers, or
 * cuda devices, which meet through NCCL, one GPU each and only among
 * themselves (UNIMPLEMENTED on others).
 *
 * In a process group of several processes (xrt_distributed_init()), the
 * run spans them unless @config says this_process_only: every process
 * calls this together, for the same program and device assignment,
 * with its own sessions, which are the global devices from the earlier
 * ranks' session counts on; @compilations, @args (@num_args each) and
 * @out are then per session of this process, not per device.  The
 * processes first tell one another what they run, so that a process of
 * another program, or one that cannot start its devices, fails the run
 * in every process (ABORTED in the others) before any waits at a
 * collective.  Collectives go through MPI, polled against the timeout
 * and cancel flag; a process that ends or stalls in the middle of a run
 * leaves the others waiting until their timeout, which breaks the group
 * (see xrt_distributed_shutdown()): give distributed runs a timeout.
 * A process runs its distributed runs one at a time, and every process
 * must run them in one order.  Across processes the devices must be of
 * memory the host maps (host, accel): cuda devices are UNIMPLEMENTED.
 *
 * Return: NULL; INVALID_ARGUMENT (a NULL, a device assignment, a
 * compilation of another number of devices, an argument's shape);
 * NOT_FOUND for a handle unknown to the device's session (an argument
 * of another device); UNIMPLEMENTED for a device that is not a host
 * device; or the error of the device that failed first.  Every error
 * about one device begins "replica R: " ("replica R partition P: "),
 * and no result is left.
 */
XRT_API xrt_status *xrt_execute_replicated(xrt_session *const *sessions, uint32_t num_sessions,
					   const xrt_handle *compilations, const xrt_handle *args,
					   uint32_t num_args,
					   const struct xrt_replicated_config *config,
					   xrt_handle *out);

/**
 * struct xrt_distributed_options - how this process joins a process group
 * @rank: this process's rank, or -1: the launcher's
 * @size: the group's number of processes, or 0: the launcher's
 * @coordinator: NULL: the launcher's group; or, for processes started
 *               apart (no launcher), the address of Open MPI's
 *               ompi-server (the URI it reports, or file:PATH of it),
 *               through which they find one another; @rank and @size are
 *               then needed
 *
 * With a launcher, a rank or size given must be the one it gave: a
 * check.  Under a coordinator, rank 0 publishes its port under the name
 * xrt-distributed-$XRT_DISTRIBUTED_JOB (default "job"); jobs sharing an
 * ompi-server at once need names of their own.
 */
struct xrt_distributed_options {
	int32_t rank;
	int32_t size;
	const char *coordinator;
};

/**
 * xrt_distributed_init() - join the process group this process was
 *			    launched in
 * @options: NULL: everything from the launcher
 *
 * Replicated executions then span the processes: mpirun (Open MPI) or
 * srun (Slurm, with PMIx) starts them, and MPI, which libxrt loads now
 * through its plugin libxrt-mpi.so (a program that never calls this
 * needs no MPI), joins them.  Every process numbers its sessions of a
 * replicated execution after those of the ranks before it: the
 * sessions of rank r are the global devices from the sum of the
 * earlier ranks' session counts on.  Calling it again is harmless; a
 * process launched alone is a group of one.
 *
 * Return: NULL; FAILED_PRECONDITION without the plugin or MPI (the
 * message says what is missing); INVALID_ARGUMENT for a rank or size
 * that is not the launcher's, or a coordinator without them or under a
 * launcher; UNAVAILABLE for MPI's own failure (a coordinator not
 * reached, rank 0 not found within a minute); FAILED_PRECONDITION
 * after xrt_distributed_shutdown(), as MPI starts once in a process.
 */
XRT_API xrt_status *xrt_distributed_init(const struct xrt_distributed_options *options);

/**
 * xrt_distributed_rank() - this process's rank and the group's size
 * @rank: receives the rank (0 outside a group); may be NULL
 * @size: receives the size (1 outside a group); may be NULL
 *
 * Return: whether xrt_distributed_init() joined a group.
 */
XRT_API bool xrt_distributed_rank(uint32_t *rank, uint32_t *size);

/**
 * xrt_distributed_launched() - whether a launcher started this process
 *				among others
 *
 * Return: true where the environment names a group of more than one
 * process (Open MPI's OMPI_COMM_WORLD_SIZE, PMIx's and PMI's, Slurm's
 * SLURM_NTASKS): what xrt-run looks at to call xrt_distributed_init().
 */
XRT_API bool xrt_distributed_launched(void);

/**
 * xrt_distributed_shutdown() - leave the process group
 *
 * Ends MPI, when libxrt began it.  A group broken by a collective that
 * did not complete (a lost process, a deadline) cannot end cleanly:
 * this then prints why and aborts the whole job (MPI_Abort), and does
 * not return.
 *
 * Return: NULL, or MPI's error.
 */
XRT_API xrt_status *xrt_distributed_shutdown(void);

/**
 * xrt_distributed_broken() - whether a collective given up broke the
 *			      group
 *
 * Return: true once a distributed run gave up waiting for other
 * processes (a deadline, a cancellation, an MPI error): MPI is then in
 * the middle of a collective for good, and every later distributed call
 * fails.  The others, given the same timeout, give up too.
 */
XRT_API bool xrt_distributed_broken(void);

/**
 * xrt_distributed_abort() - end every process of the group
 * @status: the exit status the launcher reports
 *
 * For a process that cannot go on while others may wait for it at a
 * collective (MPI_Abort): the launcher ends them all.  Outside a group,
 * it returns and does nothing.
 */
XRT_API void xrt_distributed_abort(int status);

/** typedef xrt_event - the completion of an asynchronous execution (opaque) */
typedef struct xrt_event xrt_event;

/**
 * xrt_execute_async() - start a compiled program and return at once
 * @s: a session
 * @compilation: a compilation handle
 * @args: one allocation handle per parameter
 * @num_args: their number
 * @config: NULL for the defaults (all zero)
 * @out: receives the result's allocation handle, usable at once: reading
 *       it waits for the run, and an execution taking it as an argument
 *       runs after it (executions of one session run in order)
 * @event: receives the run's event (destroy it with xrt_event_destroy()),
 *         or NULL when the caller does not want one
 *
 * Checks as xrt_execute() does.  The run holds what it uses (the
 * compilation, the arguments, @config's cancel flag) until it ends: the
 * caller may release them at once.  On cuda a program's while loops are
 * decided on the host as it is submitted.  When the run fails,
 * xrt_event_wait() and every read of the result return its error
 * (ABORTED when the device stopped it).
 *
 * Return: NULL when the run was started, or the error that kept it from
 * starting.
 */
XRT_API xrt_status *xrt_execute_async(xrt_session *s, xrt_handle compilation,
				      const xrt_handle *args, uint32_t num_args,
				      const struct xrt_execution_config *config, xrt_handle *out,
				      xrt_event **event);

/**
 * xrt_event_wait() - wait for an asynchronous execution
 * @e: an event
 * @timeout_ns: how long to wait; 0 only looks; negative waits until done
 *
 * A run stopped by its own timeout ends with DEADLINE_EXCEEDED too:
 * xrt_event_ended() tells the two apart.
 *
 * Return: NULL when the run completed, DEADLINE_EXCEEDED while it still
 * runs, or the run's error (a copy: free it).
 */
XRT_API xrt_status *xrt_event_wait(xrt_event *e, int64_t timeout_ns);

/**
 * xrt_event_ended() - whether an asynchronous execution has ended
 * @e: an event (NULL: false)
 *
 * Looks without waiting.
 *
 * Return: true once the run ended, well or not.
 */
XRT_API bool xrt_event_ended(xrt_event *e);

/** xrt_event_destroy() - drop an event (NULL: nothing); the run goes on */
XRT_API void xrt_event_destroy(xrt_event *e);

/**
 * struct xrt_compile_cache_stats - the process's compile cache
 * @entries: programs (and failures) cached now
 * @bytes: their size, as counted against the byte limit
 * @compiles: compilations run so far
 * @hits: requests the cache answered (waiting for a compile included)
 * @evictions: entries evicted so far
 */
struct xrt_compile_cache_stats {
	uint64_t entries, bytes, compiles, hits, evictions;
};

/** xrt_compile_cache_stats() - read the cache's counters */
XRT_API void xrt_compile_cache_stats(struct xrt_compile_cache_stats *out);

/**
 * xrt_compile_cache_limits() - bound the compile cache
 * @max_entries: entries kept at most (default 1024)
 * @max_bytes: bytes of programs kept at most (default 256 MiB)
 *
 * Least recently used entries beyond either limit are evicted at once;
 * one still held by a handle lives on, and comes back if compiled again.
 */
XRT_API void xrt_compile_cache_limits(uint64_t max_entries, uint64_t max_bytes);

/*
 * The same over the wire format (proto/xrt.proto), as the seed's ops take
 * them.  The messages carry the field numbers of the original XRT's
 * (XLAComputation, XLAAllocation, XLATupleNode, XRTExecutionConfig), so
 * the bytes its clients send read here.  Messages are checked (nesting,
 * then every field) before anything happens; errors name the field.
 */

/**
 * xrt_compile_proto() - compile an xrt.Computation message
 * @s: a session
 * @data: the message: a config and a body (an xla.HloSnapshot, HLO text,
 *	  XLA's serialized module, or an IrModule)
 * @size: its length
 * @out: receives the compilation handle
 *
 * A config asking for more than one replica or core, or naming host
 * sends and receives, is UNIMPLEMENTED; a program shape (the whole
 * computation's, or core 0's), when given, must match the computation's.
 * XLA's debug options and the experimental hints are not read.
 *
 * Return: as xrt_compile_module(), INVALID_ARGUMENT also for a
 * malformed message.
 */
XRT_API xrt_status *xrt_compile_proto(xrt_session *s, const void *data, size_t size,
				      xrt_handle *out);

/**
 * xrt_allocate_proto() - allocate from an xrt.Allocation message
 * @s: a session
 * @data: the message: device ordinal 0 and a value, an xla.LiteralProto
 *	  (read as xrt_literal_from_xla_proto() reads one) or an xrt.Literal
 * @size: its length
 * @out: receives the allocation handle
 *
 * Return: as xrt_allocate(), INVALID_ARGUMENT also for a malformed
 * message.
 */
XRT_API xrt_status *xrt_allocate_proto(xrt_session *s, const void *data, size_t size,
				       xrt_handle *out);

/**
 * xrt_read_proto() - read an allocation back as an xrt.Literal message
 * @s: a session
 * @h: an allocation
 * @release: release @h once read
 * @alloc: allocator for the bytes (NULL: system)
 * @out: receives the bytes; free them with xrt_free(@alloc, *@out)
 * @out_size: receives their length
 *
 * Return: NULL, NOT_FOUND, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_read_proto(xrt_session *s, xrt_handle h, bool release,
				   const struct xrt_allocator *alloc, void **out,
				   size_t *out_size);

/**
 * xrt_read_xla_proto() - read an allocation back as an xla.LiteralProto
 * @s: a session
 * @h: an allocation
 * @release: release @h once read
 * @alloc: allocator for the bytes (NULL: system)
 * @out: receives the bytes; free them with xrt_free(@alloc, *@out)
 * @out_size: receives their length
 *
 * What the original XRT's XRTReadLiteral gives; see
 * xrt_literal_to_xla_proto().
 *
 * Return: NULL, NOT_FOUND, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_read_xla_proto(xrt_session *s, xrt_handle h, bool release,
				       const struct xrt_allocator *alloc, void **out,
				       size_t *out_size);

/**
 * xrt_make_tuple_proto() - xrt_make_tuple() from an xrt.TupleNode message
 * @s: a session
 * @data: the message
 * @size: its length
 * @inputs: the input handles its leaves index
 * @num_inputs: their number
 * @out: receives the new allocation's handle
 *
 * Return: as xrt_make_tuple().
 */
XRT_API xrt_status *xrt_make_tuple_proto(xrt_session *s, const void *data, size_t size,
					 const xrt_handle *inputs, uint32_t num_inputs,
					 xrt_handle *out);

/**
 * xrt_execute_proto() - xrt_execute() with an xrt.ExecutionConfig message
 * @s: a session
 * @compilation: a compilation handle
 * @args: one allocation handle per parameter
 * @num_args: their number
 * @config: the message (0 bytes: the defaults)
 * @config_size: its length
 * @out: receives the result's allocation handle
 *
 * A config with an execution_instance_key makes the call one device of a
 * replicated execution: the calls with that key (each in its own session
 * and thread) are the devices (common_config.replica_id,
 * core_index_in_replica) of a compilation of replicas x cores, and meet
 * at its collectives; each returns its device's result.  A device that
 * never calls is waited for until the others' timeouts: give them one.
 *
 * Return: as xrt_execute(); a replica or core other than 0 without a key,
 * or past the program's counts, is INVALID_ARGUMENT, a device joined
 * twice ALREADY_EXISTS; return_exploded_tuple is INVALID_ARGUMENT (it
 * asks for several handles: xrt_execute_proto_handles() gives them).
 */
XRT_API xrt_status *xrt_execute_proto(xrt_session *s, xrt_handle compilation,
				      const xrt_handle *args, uint32_t num_args,
				      const void *config, size_t config_size, xrt_handle *out);

/**
 * xrt_execute_proto_handles() - xrt_execute_proto() giving what the
 *				 original XRT's execute gives
 * @s: a session
 * @compilation: a compilation handle
 * @args: one allocation handle per parameter
 * @num_args: their number
 * @config: an xrt.ExecutionConfig message (0 bytes: the defaults)
 * @config_size: its length
 * @alloc: allocator for the handle array (NULL: system)
 * @out: receives the result handles; free the array with
 *	 xrt_free(@alloc, *@out)
 * @num_out: receives their number
 *
 * One handle for the result; or, where the config sets
 * return_exploded_tuple and the result is a tuple, one per element of it
 * (none for an empty tuple), the tuple itself released.
 *
 * Return: as xrt_execute_proto(); nothing is returned on failure.
 */
XRT_API xrt_status *xrt_execute_proto_handles(xrt_session *s, xrt_handle compilation,
					      const xrt_handle *args, uint32_t num_args,
					      const void *config, size_t config_size,
					      const struct xrt_allocator *alloc, xrt_handle **out,
					      uint32_t *num_out);

/**
 * struct xrt_chain_ref - a value of a chain: a step's result, or an element
 * @step: the step's number in the plan
 * @element: -1 for the whole result, else its tuple element
 */
struct xrt_chain_ref {
	uint32_t step;
	int64_t element;
};

/**
 * struct xrt_chain_step - one step of a chained execution
 * @data: with no @computation: an existing allocation this step stands for
 * @computation: a compilation handle to run, or 0
 * @inputs: its arguments, each a value of an earlier step
 * @num_inputs: their number (at most 64)
 * @rng_seed: as in struct xrt_execution_config
 */
struct xrt_chain_step {
	xrt_handle data;
	xrt_handle computation;
	const struct xrt_chain_ref *inputs;
	uint32_t num_inputs;
	uint32_t rng_seed;
};

/**
 * xrt_execute_chained() - run a plan of executions in one call
 * @s: a session
 * @steps: the plan, in order; a step reads only earlier steps
 * @n: its length
 * @results: the values to return
 * @num_results: their number
 * @out: receives one allocation handle per result
 *
 * Each intermediate value is freed right after its last reader runs;
 * the handles named as data stay as they are.  On error no result
 * handle is left.
 *
 * Return: NULL, NOT_FOUND, INVALID_ARGUMENT naming the step (a read of
 * a later step, an element out of range, argument shapes), or a run's
 * error.
 */
XRT_API xrt_status *xrt_execute_chained(xrt_session *s, const struct xrt_chain_step *steps,
					uint32_t n, const struct xrt_chain_ref *results,
					uint32_t num_results, xrt_handle *out);

/**
 * enum xrt_op_kind - the operations a session counts
 * @XRT_STAT_ALLOCATE: the xrt_allocate*() calls
 * @XRT_STAT_READ: xrt_read_literal(), xrt_read_data() (and the proto form)
 * @XRT_STAT_WRITE: xrt_write_literal()
 * @XRT_STAT_SUB_TUPLE: xrt_sub_tuple()
 * @XRT_STAT_MAKE_TUPLE: xrt_make_tuple() (and the proto form)
 * @XRT_STAT_RELEASE: releases of allocations and compilations
 * @XRT_STAT_COMPILE: compilations, cache hits included
 * @XRT_STAT_EXECUTE: executions
 * @XRT_STAT_COUNT: the number of kinds
 */
enum xrt_op_kind {
	XRT_STAT_ALLOCATE,
	XRT_STAT_READ,
	XRT_STAT_WRITE,
	XRT_STAT_SUB_TUPLE,
	XRT_STAT_MAKE_TUPLE,
	XRT_STAT_RELEASE,
	XRT_STAT_COMPILE,
	XRT_STAT_EXECUTE,
	XRT_STAT_COUNT,
};

/**
 * struct xrt_op_stats - one operation kind's calls and latencies
 * @calls: calls so far
 * @errors: those that returned an error
 * @p50_ns: median latency, in nanoseconds (from buckets: at most a quarter high)
 * @p90_ns: 90th percentile
 * @p99_ns: 99th percentile
 * @max_ns: the slowest call
 */
struct xrt_op_stats {
	uint64_t calls, errors, p50_ns, p90_ns, p99_ns, max_ns;
};

/** xrt_op_kind_name() - "allocate", "execute", ...; "unknown" out of range */
XRT_API const char *xrt_op_kind_name(enum xrt_op_kind op);

/**
 * xrt_session_stats() - a session's counters for one operation kind
 * @s: a session
 * @op: the kind
 * @out: receives the figures
 *
 * Return: NULL, or INVALID_ARGUMENT for a NULL argument or unknown kind.
 */
XRT_API xrt_status *xrt_session_stats(xrt_session *s, enum xrt_op_kind op,
				      struct xrt_op_stats *out);

/**
 * struct xrt_memory_info - device memory, as a session sees it
 * @total: the device's memory (host: physical memory)
 * @in_use: bytes this session's allocations hold
 * @limit: the session's limit (0: none)
 */
struct xrt_memory_info {
	uint64_t total, in_use, limit;
};

/**
 * xrt_session_memory() - the device's memory and the session's share
 * @s: a session
 * @out: receives the figures
 *
 * Return: NULL, or INVALID_ARGUMENT for a NULL argument.
 */
XRT_API xrt_status *xrt_session_memory(xrt_session *s, struct xrt_memory_info *out);

#ifdef __cplusplus
}
#endif

#endif /* XRT_XRT_H */
