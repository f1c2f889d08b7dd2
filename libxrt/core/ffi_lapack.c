// SPDX-License-Identifier: MIT
/*
 * The custom-call targets jaxlib emits on CPU for jnp.linalg, built in:
 * lapack_{s,d,c,z}{getrf,potrf,geqrf,orgqr/ungqr,syevd/heevd,trsm}_ffi,
 * run by LAPACK (OpenBLAS carries it).  Their contract is jaxlib's: the
 * last two dims of each array are a matrix, stored column-major (JAX
 * constrains the operands so: operand_layout_constraints), the leading
 * dims a batch; info results are s32 per matrix and say what LAPACK's
 * did; character attributes (uplo, side, ...) are ui8 letters.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "core/ffi.h"
#include "core/mem.h"

#ifdef XRT_HAVE_LAPACK

/*
 * LAPACK's and BLAS's Fortran entry points (data as void *: one
 * declaration serves s, d, c and z).  Character arguments carry their
 * hidden lengths last, as gfortran passes them.
 */
typedef void getrf_fn(const int *m, const int *n, void *a, const int *lda, int *ipiv, int *info);
typedef void potrf_fn(const char *uplo, const int *n, void *a, const int *lda, int *info,
		      size_t l1);
typedef void geqrf_fn(const int *m, const int *n, void *a, const int *lda, void *tau, void *work,
		      const int *lwork, int *info);
typedef void orgqr_fn(const int *m, const int *n, const int *k, void *a, const int *lda,
		      const void *tau, void *work, const int *lwork, int *info);
typedef void syevd_fn(const char *jobz, const char *uplo, const int *n, void *a, const int *lda,
		      void *w, void *work, const int *lwork, int *iwork, const int *liwork,
		      int *info, size_t l1, size_t l2);
typedef void heevd_fn(const char *jobz, const char *uplo, const int *n, void *a, const int *lda,
		      void *w, void *work, const int *lwork, void *rwork, const int *lrwork,
		      int *iwork, const int *liwork, int *info, size_t l1, size_t l2);
typedef void trsm_fn(const char *side, const char *uplo, const char *transa, const char *diag,
		     const int *m, const int *n, const void *alpha, const void *a, const int *lda,
		     void *b, const int *ldb, size_t l1, size_t l2, size_t l3, size_t l4);

getrf_fn sgetrf_, dgetrf_, cgetrf_, zgetrf_;
potrf_fn spotrf_, dpotrf_, cpotrf_, zpotrf_;
geqrf_fn sgeqrf_, dgeqrf_, cgeqrf_, zgeqrf_;
orgqr_fn sorgqr_, dorgqr_, cungqr_, zungqr_;
syevd_fn ssyevd_, dsyevd_;
heevd_fn cheevd_, zheevd_;
trsm_fn strsm_, dtrsm_, ctrsm_, ztrsm_;

/* Index of @t among f32, f64, c64, c128: which of the four routines. */
static int kind(enum xrt_dtype t)
{
	return t == XRT_F32 ? 0 : t == XRT_F64 ? 1 : t == XRT_C64 ? 2 : t == XRT_C128 ? 3 : -1;
}

static xrt_status *bad(const struct xrt_ffi_call *c, const char *why)
{
	return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "%s: %s", c->target, why);
}

/* A batch of matrices: @count of @m x @n, each @bytes long. */
struct batch {
	int m, n;
	int64_t count;
	size_t bytes;
};

/* @b as a batch of matrices of its type; false (with @why) where it is not one. */
static bool batch_of(const struct xrt_ffi_buffer *b, struct batch *out, const char **why)
{
	uint32_t d;

	if (b->rank < 2 || kind(b->dtype) < 0) {
		*why = "an operand is not a matrix (or batch of them) of f32, f64, c64 or c128";
		return false;
	}
	if (b->dims[b->rank - 2] > INT_MAX || b->dims[b->rank - 1] > INT_MAX) {
		*why = "a matrix dimension is beyond LAPACK's int";
		return false;
	}
	out->m = (int)b->dims[b->rank - 2];
	out->n = (int)b->dims[b->rank - 1];
	out->count = 1;
	for (d = 0; d + 2 < b->rank; d++)
		out->count *= b->dims[d];
	out->bytes = (size_t)out->m * (size_t)out->n * xrt_dtype_size(b->dtype);
	return true;
}

/* Whether buffers @a and @b are arrays of the same type and dims. */
static bool same_array(const struct xrt_ffi_buffer *a, const struct xrt_ffi_buffer *b)
{
	return a->dtype == b->dtype && a->rank == b->rank && a->size == b->size &&
	       !memcmp(a->dims, b->dims, a->rank * sizeof(*a->dims));
}

/*
 * Whether @c has @na arguments and @nr results, the first argument a
 * batch of matrices (into @bt) and the first result an array like it.
 */
static xrt_status *check(const struct xrt_ffi_call *c, uint32_t na, uint32_t nr,
			 struct batch *bt)
{
	const char *why = NULL;

	if (c->num_args != na || c->num_results != nr)
		return bad(c, "wrong number of operands or results");
	if (!batch_of(&c->args[0], bt, &why))
		return bad(c, why);
	if (!same_array(&c->results[0], &c->args[0]))
		return bad(c, "the first result is not of the operand's type and shape");
	return NULL;
}

/* Result @i is of type @t, @per elements per matrix of @bt. */
static bool holds(const struct xrt_ffi_call *c, uint32_t i, const struct batch *bt, int64_t per,
		  enum xrt_dtype t)
{
	return c->results[i].dtype == t &&
	       c->results[i].size == (uint64_t)bt->count * (uint64_t)per * xrt_dtype_size(t);
}

/* A ui8 letter attribute ('L', 'U', 'N', ...), or @dflt where absent. */
static char letter(const struct xrt_ffi_call *c, const char *name, char dflt)
{
	xrt_status *st;
	int64_t v;
	bool ok;

	if (!xrt_ffi_attr_find(c->attrs, name))
		return dflt;
	st = xrt_ffi_get_int(c->attrs, name, &v);
	ok = !st && v > 0 && v < 128;
	xrt_status_free(st);
	return ok ? (char)v : 0;	/* 0: no letter, which the callers refuse */
}

/* The workspace size LAPACK reported in @w (its first element, real part). */
static int work_size(int k, const void *w)
{
	double v = k == 0 ? ((const float *)w)[0] : k == 1 ? ((const double *)w)[0] :
		   k == 2 ? ((const float *)w)[0] : ((const double *)w)[0];

	return v < 1 ? 1 : v > INT_MAX / 2 ? INT_MAX / 2 : (int)v;
}

/*
 * A LAPACK workspace of the size its query left in @query (its first
 * element, real part), in elements of @esize bytes, into *@lwork; NULL
 * when out of memory.
 */
static void *workspace(int k, const void *query, size_t esize, int *lwork)
{
	*lwork = work_size(k, query);
	return xrt_mem_calloc(NULL, (size_t)*lwork, esize);
}

static xrt_status *getrf(void *user, const struct xrt_ffi_call *c)
{
	static getrf_fn *const fn[] = { sgetrf_, dgetrf_, cgetrf_, zgetrf_ };
	struct batch bt;
	xrt_status *st = check(c, 1, 3, &bt);
	int64_t i;
	int k = kind(c->args[0].dtype);

	(void)user;
	if (!st && (!holds(c, 1, &bt, bt.m < bt.n ? bt.m : bt.n, XRT_S32) ||
		    !holds(c, 2, &bt, 1, XRT_S32)))
		st = bad(c, "ipiv and info must be s32, min(m, n) and one per matrix");
	if (st)
		return st;
	memcpy(c->results[0].data, c->args[0].data, (size_t)c->args[0].size);
	for (i = 0; i < bt.count; i++) {
		int lda = bt.m > 1 ? bt.m : 1, mn = bt.m < bt.n ? bt.m : bt.n;

		fn[k](&bt.m, &bt.n, (char *)c->results[0].data + i * bt.bytes, &lda,
		      (int *)c->results[1].data + i * mn, (int *)c->results[2].data + i);
	}
	return NULL;
}

static xrt_status *potrf(void *user, const struct xrt_ffi_call *c)
{
	static potrf_fn *const fn[] = { spotrf_, dpotrf_, cpotrf_, zpotrf_ };
	struct batch bt;
	xrt_status *st = check(c, 1, 2, &bt);
	char uplo = letter(c, "uplo", 'L');
	int64_t i;
	int k = kind(c->args[0].dtype);

	(void)user;
	if (!st && (bt.m != bt.n || !holds(c, 1, &bt, 1, XRT_S32)))
		st = bad(c, "a square matrix and one s32 info per matrix");
	if (!st && uplo != 'L' && uplo != 'U')
		st = bad(c, "uplo is not 'L' or 'U'");
	if (st)
		return st;
	memcpy(c->results[0].data, c->args[0].data, (size_t)c->args[0].size);
	for (i = 0; i < bt.count; i++) {
		int lda = bt.n > 1 ? bt.n : 1;

		fn[k](&uplo, &bt.n, (char *)c->results[0].data + i * bt.bytes, &lda,
		      (int *)c->results[1].data + i, 1);
	}
	return NULL;
}

static xrt_status *geqrf(void *user, const struct xrt_ffi_call *c)
{
	static geqrf_fn *const fn[] = { sgeqrf_, dgeqrf_, cgeqrf_, zgeqrf_ };
	struct batch bt;
	xrt_status *st = check(c, 1, 2, &bt);
	size_t es = xrt_dtype_size(c->args[0].dtype);
	int k = kind(c->args[0].dtype), mn, lda, lwork = -1, info = 0;
	double query[2];	/* one element of any of the four types */
	void *work;
	int64_t i;

	(void)user;
	mn = st ? 0 : bt.m < bt.n ? bt.m : bt.n;
	if (!st && !holds(c, 1, &bt, mn, c->args[0].dtype))
		st = bad(c, "tau must hold min(m, n) elements of the matrix type per matrix");
	if (st)
		return st;
	lda = bt.m > 1 ? bt.m : 1;
	memcpy(c->results[0].data, c->args[0].data, (size_t)c->args[0].size);
	fn[k](&bt.m, &bt.n, c->results[0].data, &lda, c->results[1].data, query, &lwork, &info);
	work = workspace(k, query, es, &lwork);
	if (!work)
		return xrt_status_oom(NULL, "a QR factorization's workspace");
	for (i = 0; i < bt.count; i++)
		fn[k](&bt.m, &bt.n, (char *)c->results[0].data + i * bt.bytes, &lda,
		      (char *)c->results[1].data + i * mn * es, work, &lwork, &info);
	xrt_mem_free(NULL, work);
	return NULL;
}

static xrt_status *orgqr(void *user, const struct xrt_ffi_call *c)
{
	static orgqr_fn *const fn[] = { sorgqr_, dorgqr_, cungqr_, zungqr_ };
	struct batch bt;
	xrt_status *st = check(c, 2, 1, &bt);
	size_t es = xrt_dtype_size(c->args[0].dtype);
	int k = kind(c->args[0].dtype), tk, lda, lwork = -1, info = 0;
	double query[2];	/* one element of any of the four types */
	void *work;
	int64_t i;

	(void)user;
	if (st)
		return st;
	tk = c->args[1].rank ? (int)c->args[1].dims[c->args[1].rank - 1] : 0;
	if (c->args[1].dtype != c->args[0].dtype || c->args[1].rank != c->args[0].rank - 1 ||
	    tk > bt.n || bt.n > bt.m || c->args[1].size != (uint64_t)bt.count * (uint64_t)tk * es)
		return bad(c, "tau must hold k <= n <= m elements of the matrix type per matrix");
	lda = bt.m > 1 ? bt.m : 1;
	memcpy(c->results[0].data, c->args[0].data, (size_t)c->args[0].size);
	fn[k](&bt.m, &bt.n, &tk, c->results[0].data, &lda, c->args[1].data, query, &lwork, &info);
	work = workspace(k, query, es, &lwork);
	if (!work)
		return xrt_status_oom(NULL, "a Householder product's workspace");
	for (i = 0; i < bt.count; i++)
		fn[k](&bt.m, &bt.n, &tk, (char *)c->results[0].data + i * bt.bytes, &lda,
		      (const char *)c->args[1].data + i * tk * es, work, &lwork, &info);
	xrt_mem_free(NULL, work);
	return NULL;
}

/* One symmetric (Hermitian) eigenproblem of kind @k in place at @a, values to @w. */
static int eig_one(int k, char jobz, char uplo, int n, void *a, void *w, void *work, int lwork,
		   void *rwork, int lrwork, int *iwork, int liwork)
{
	static syevd_fn *const real[] = { ssyevd_, dsyevd_ };
	static heevd_fn *const cplx[] = { cheevd_, zheevd_ };
	int lda = n > 1 ? n : 1, info = 0;

	if (k < 2)
		real[k](&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, &info, 1, 1);
	else
		cplx[k - 2](&jobz, &uplo, &n, a, &lda, w, work, &lwork, rwork, &lrwork, iwork,
			    &liwork, &info, 1, 1);
	return info;
}

static xrt_status *syevd(void *user, const struct xrt_ffi_call *c)
{
	struct batch bt;
	xrt_status *st = check(c, 1, 3, &bt);
	char jobz = letter(c, "mode", 'V'), uplo = letter(c, "uplo", 'L');
	int k = kind(c->args[0].dtype), lwork, lrwork, liwork, iw = 0;
	size_t es, rs;
	double qw[2], qr[2];
	void *work, *rwork;
	int *iwork;
	int64_t i;

	(void)user;
	es = xrt_dtype_size(c->args[0].dtype);
	rs = k >= 2 ? es / 2 : es;
	if (!st && (bt.m != bt.n || !holds(c, 1, &bt, bt.n, rs == 4 ? XRT_F32 : XRT_F64) ||
		    !holds(c, 2, &bt, 1, XRT_S32)))
		st = bad(c, "a square matrix, n real eigenvalues and one s32 info per matrix");
	if (!st && ((jobz != 'V' && jobz != 'N') || (uplo != 'L' && uplo != 'U')))
		st = bad(c, "mode is not 'V' or 'N', or uplo not 'L' or 'U'");
	if (st)
		return st;
	memcpy(c->results[0].data, c->args[0].data, (size_t)c->args[0].size);
	eig_one(k, jobz, uplo, bt.n, c->results[0].data, c->results[1].data, qw, -1, qr, -1, &iw,
		-1);
	liwork = iw > 1 ? iw : 1;
	work = workspace(k, qw, es, &lwork);
	lrwork = 1;	/* the real routines take none */
	rwork = k >= 2 ? workspace(k - 2, qr, rs, &lrwork) : xrt_mem_calloc(NULL, 1, rs);
	iwork = xrt_mem_calloc(NULL, (size_t)liwork, sizeof(int));
	if (work && rwork && iwork) {
		for (i = 0; i < bt.count; i++)
			((int *)c->results[2].data)[i] =
				eig_one(k, jobz, uplo, bt.n, (char *)c->results[0].data + i * bt.bytes,
					(char *)c->results[1].data + i * bt.n * rs, work, lwork,
					rwork, lrwork, iwork, liwork);
	} else {
		st = xrt_status_oom(NULL, "an eigendecomposition's workspace");
	}
	xrt_mem_free(NULL, work);
	xrt_mem_free(NULL, rwork);
	xrt_mem_free(NULL, iwork);
	return st;
}

static xrt_status *trsm(void *user, const struct xrt_ffi_call *c)
{
	static trsm_fn *const fn[] = { strsm_, dtrsm_, ctrsm_, ztrsm_ };
	static const double one[2] = { 1, 0 };
	static const float one_f[2] = { 1, 0 };
	char side = letter(c, "side", 'L'), uplo = letter(c, "uplo", 'L');
	char trans = letter(c, "trans_x", 'N'), diag = letter(c, "diag", 'N');
	struct batch a, b;
	const char *why = NULL;
	int k, lda, ldb;
	int64_t i;

	(void)user;
	if (c->num_args != 2 || c->num_results != 1)
		return bad(c, "wrong number of operands or results");
	if (!batch_of(&c->args[0], &a, &why) || !batch_of(&c->args[1], &b, &why))
		return bad(c, why);
	k = kind(c->args[0].dtype);
	if (c->args[1].dtype != c->args[0].dtype || a.m != a.n || a.count != b.count ||
	    a.m != (side == 'L' ? b.m : b.n) || !same_array(&c->results[0], &c->args[1]))
		return bad(c, "a square triangular matrix of the side's size, and b, per batch");
	if ((side != 'L' && side != 'R') || (uplo != 'L' && uplo != 'U') ||
	    (trans != 'N' && trans != 'T' && trans != 'C') || (diag != 'N' && diag != 'U'))
		return bad(c, "side, uplo, trans_x or diag is not one of LAPACK's letters");
	memcpy(c->results[0].data, c->args[1].data, (size_t)c->args[1].size);
	lda = a.m > 1 ? a.m : 1;
	ldb = b.m > 1 ? b.m : 1;
	for (i = 0; i < b.count; i++)
		fn[k](&side, &uplo, &trans, &diag, &b.m, &b.n, k == 0 || k == 2 ? (const void *)one_f :
		      (const void *)one, (const char *)c->args[0].data + i * a.bytes, &lda,
		      (char *)c->results[0].data + i * b.bytes, &ldb, 1, 1, 1, 1);
	return NULL;
}

#define FOUR(name, fn)                                                        \
	{ "lapack_s" name "_ffi", fn }, { "lapack_d" name "_ffi", fn },       \
	{ "lapack_c" name "_ffi", fn }, { "lapack_z" name "_ffi", fn }

static const struct {
	const char *target;
	xrt_custom_call_fn *fn;
} builtins[] = {
	FOUR("getrf", getrf), FOUR("potrf", potrf), FOUR("geqrf", geqrf), FOUR("trsm", trsm),
	{ "lapack_sorgqr_ffi", orgqr }, { "lapack_dorgqr_ffi", orgqr },
	{ "lapack_cungqr_ffi", orgqr }, { "lapack_zungqr_ffi", orgqr },
	{ "lapack_ssyevd_ffi", syevd }, { "lapack_dsyevd_ffi", syevd },
	{ "lapack_cheevd_ffi", syevd }, { "lapack_zheevd_ffi", syevd },
};

xrt_custom_call_fn *xffi_builtin(const char *target)
{
	size_t i;

	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(builtins[i].target, target))
			return builtins[i].fn;
	return NULL;
}

#else

xrt_custom_call_fn *xffi_builtin(const char *target)
{
	(void)target;
	return NULL;	/* built without LAPACK */
}

#endif
