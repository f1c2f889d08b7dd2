// SPDX-License-Identifier: MIT
/*
 * xrt_compile_proto(): an xrt.Computation, numbered as the original XRT's
 * XLAComputation so that its clients' bytes compile.  The config is read
 * field by field: what this runtime cannot honour (per-core programs,
 * host compute) is refused by name, the replica and core counts become
 * the module's, what cannot change a value
 * (XLA's debug options, TPU-only state hints) is skipped, and a program
 * shape, when given, must be the computation's.
 */
#include <stdio.h>
#include <string.h>

#include <xrt/wire.h>

#include "ir/ir.h"
#include "wire/wire.h"
#include "xrt_internal.h"

/* Does XLA's @msg (parameter @i, or the result where @i == @n) name @have? */
static xrt_status *check_one(xrt_session *s, const Xla__ShapeProto *msg,
			     const struct xrt_shape *have, const char *field, uint32_t i,
			     uint32_t n)
{
	struct xrt_shape want;
	char where[32];
	xrt_status *st;

	if (!msg)
		return NULL;	/* not given: not checked */
	if (i < n)
		snprintf(where, sizeof(where), "parameter %u", i);
	else
		snprintf(where, sizeof(where), "the result");
	st = wire_shape_from_xla(s->a, msg, &want);
	if (st)
		return xrt_status_annotate(st, "compile: %s, %s", field, where);
	if (!xrt_shape_compatible(&want, have))
		st = xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				    "compile: %s differs from the computation's at %s", field,
				    where);
	xrt_shape_deinit(&want);
	return st;
}

/* The signature @ps (config field @field) asks for, against @m's. */
static xrt_status *check_signature(xrt_session *s, const Xla__ProgramShapeProto *ps,
				   const char *field, const xrt_module *m)
{
	uint32_t i, n = xrt_module_num_params(m);
	xrt_status *st = NULL;

	if (ps->n_parameters != n)
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "compile: %s has %zu parameters, the computation %u",
				      field, ps->n_parameters, n);
	for (i = 0; i <= n && !st; i++)
		st = check_one(s, i < n ? ps->parameters[i] : ps->result,
			       i < n ? xrt_module_param_shape(m, i) : xrt_module_result_shape(m),
			       field, i, n);
	return st;
}

/*
 * Replicas and cores: num_replicas R and num_cores_per_replica P (0: as
 * the module states, else 1), SPMD: one program, with partition-id, on
 * every core.
 */
static xrt_status *check_placement(xrt_session *s, const Xrt__ComputationConfig *cfg)
{
	if (cfg->num_replicas < 0 || cfg->num_cores_per_replica < 0)
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "compile: %d replicas of %d cores each", cfg->num_replicas,
				      cfg->num_cores_per_replica);
	if (cfg->n_per_core_program_shape > 1)
		return xrt_status_new(s->a, XRT_UNIMPLEMENTED,
				      "compile: %zu per-core program shapes: per-core programs "
				      "(MPMD) are not supported; one SPMD program, telling its "
				      "cores apart by partition-id, runs on every core",
				      cfg->n_per_core_program_shape);
	if (cfg->host_compute_metadata.len)
		return xrt_status_new(s->a, XRT_UNIMPLEMENTED,
				      "compile: host_compute_metadata names host sends and "
				      "receives; host compute is not supported");
	return NULL;
}

/* A device assignment, when given, places the program's cores of its replicas each. */
static xrt_status *check_assignment(xrt_session *s, const Xrt__DeviceAssignment *da,
				    const xrt_module *m)
{
	uint32_t r = xrt_module_num_replicas(m), p = xrt_module_num_partitions(m);
	size_t i;

	if (!da)
		return NULL;
	if (da->n_computation_devices != p)
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "compile: the device assignment places %zu cores, the "
				      "computation has %u", da->n_computation_devices, p);
	for (i = 0; i < da->n_computation_devices; i++) {
		if (da->computation_devices[i]->n_replica_devices != r)
			return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
					      "compile: the device assignment places %zu replicas "
					      "of core %zu, the computation has %u",
					      da->computation_devices[i]->n_replica_devices, i, r);
	}
	return NULL;
}

/* The config's counts win where set; a module stating other ones is refused. */
static xrt_status *apply_counts(xrt_session *s, const Xrt__ComputationConfig *cfg,
				xrt_module *m)
{
	if (cfg->num_replicas && m->replica_count &&
	    m->replica_count != (uint32_t)cfg->num_replicas)
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "compile: the config's num_replicas is %d, the module "
				      "states replica_count=%u", cfg->num_replicas,
				      m->replica_count);
	if (cfg->num_cores_per_replica && m->num_partitions &&
	    m->num_partitions != (uint32_t)cfg->num_cores_per_replica)
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "compile: the config's num_cores_per_replica is %d, the "
				      "module states num_partitions=%u",
				      cfg->num_cores_per_replica, m->num_partitions);
	if (cfg->num_replicas > IR_MAX_REPLICAS || cfg->num_cores_per_replica > IR_MAX_REPLICAS)
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "compile: %d replicas of %d cores: each at most %d",
				      cfg->num_replicas, cfg->num_cores_per_replica,
				      IR_MAX_REPLICAS);
	if (cfg->num_replicas)
		m->replica_count = (uint32_t)cfg->num_replicas;
	if (cfg->num_cores_per_replica)
		m->num_partitions = (uint32_t)cfg->num_cores_per_replica;
	return NULL;
}

/* The module the message's body holds. */
static xrt_status *body_module(xrt_session *s, const Xrt__Computation *c, xrt_module **m)
{
	const Xla__HloSnapshot *snap;

	switch (c->body_case) {
	case XRT__COMPUTATION__BODY_HLO_SNAPSHOT:
		snap = c->hlo_snapshot;
		if (!snap->hlo || !snap->hlo->hlo_module)
			return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
					      "compile: hlo_snapshot holds no module");
		return xla_module_from_msg(s->a, snap->hlo->hlo_module, m);
	case XRT__COMPUTATION__BODY_HLO_TEXT:
		return xrt_hlo_parse(s->a, c->hlo_text, strlen(c->hlo_text), m);
	case XRT__COMPUTATION__BODY_XLA_MODULE:
		return xrt_hlo_parse_xla_proto(s->a, c->xla_module.data, c->xla_module.len,
					       XRT_XLA_ANY, m);
	case XRT__COMPUTATION__BODY_MODULE:
		return ir_module_from_msg(s->a, c->module, m);
	default:
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "compile: the computation has no body (hlo_snapshot, "
				      "hlo_text, xla_module or module)");
	}
}

static xrt_status *compile_msg(xrt_session *s, const Xrt__Computation *c, xrt_handle *out)
{
	const Xrt__ComputationConfig *cfg = c->config;
	xrt_module *m = NULL;
	xrt_status *st = cfg ? check_placement(s, cfg) : NULL;

	if (!st)
		st = body_module(s, c, &m);
	if (!st && cfg)
		st = apply_counts(s, cfg, m);
	if (!st && cfg)
		st = check_assignment(s, cfg->device_assignment, m);
	if (!st && cfg && (cfg->program_shape || cfg->n_per_core_program_shape))
		st = xrt_module_verify(m);	/* shapes are only known once verified */
	if (!st && cfg && cfg->program_shape)
		st = check_signature(s, cfg->program_shape, "the config's program shape", m);
	if (!st && cfg && cfg->n_per_core_program_shape)
		st = check_signature(s, cfg->per_core_program_shape[0],
				     "the config's program shape of core 0", m);
	if (!st)
		st = xrt_compile_module(s, m, out);
	xrt_module_destroy(m);
	return st;
}

xrt_status *xrt_compile_proto(xrt_session *s, const void *data, size_t size, xrt_handle *out)
{
	ProtobufCMessage *base;
	struct wire_alloc w;
	xrt_status *st;

	if (!s || !out || (!data && size))
		return xrt_status_new(s ? s->a : NULL, XRT_INVALID_ARGUMENT,
				      "compile: NULL argument");
	wire_alloc_init(&w, s->a);
	st = wire_unpack(&w, &xrt__computation__descriptor, data, size, "computation", &base);
	if (st)
		return st;
	st = compile_msg(s, (const Xrt__Computation *)base, out);
	protobuf_c_message_free_unpacked(base, &w.pb);
	return st;
}
