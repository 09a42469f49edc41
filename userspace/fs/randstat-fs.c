// SPDX-License-Identifier: GPL-2.0
/*
 * randstat-fs: a FUSE filesystem with one file, `stat`: the kernel's
 * /proc/stat with every cpu/cpuN line replaced by /proc/randstat's, every
 * other line passed through, counters that never fall (rsmerge.h).
 *
 *   randstat-fs [--stat FILE] [--randstat FILE] [FUSE options] MOUNTPOINT
 *
 * Stays in the foreground.  Mounted with allow_other (any user may read;
 * a non-root daemon needs user_allow_other in /etc/fuse.conf), read-only,
 * default_permissions.  Documentation/admin-guide.rst, "randstat-fs".
 *
 * Reads: a snapshot is taken at open and again at each read from offset
 * 0 after the first (procps keeps /proc/stat open and rewinds it); reads
 * at other offsets come from the current snapshot, so a file read in
 * small chunks or with pread is always one consistent frame.  direct_io:
 * the page cache would serve stale frames.
 *
 * Process layout: the first process mounts, answers FUSE_INIT, and then
 * only supervises; a forked worker serves requests on a clone of the
 * /dev/fuse descriptor (FUSE_DEV_IOC_CLONE).  If the worker is killed, the
 * kernel fails only the requests it had taken (ECONNABORTED, no reader
 * hangs), the mount stays alive on the supervisor's descriptor, and a new
 * worker carries on from the carry state, which lives in shared memory.
 */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rsexit.h"
#include "rsmerge.h"

/* <linux/fuse.h>'s, not included: it clashes with libfuse's headers. */
#define RS_FUSE_DEV_IOC_CLONE _IOR(229, 0, uint32_t)

#define STAT_INO 2
#define FUSE_SUPER_MAGIC 0x65735546

static const char *stat_path = "/proc/stat";
static const char *rs_path = "/proc/randstat";
/*
 * /proc/stat, opened once at the start: once our file is bound over
 * /proc/stat (randstat-fs-mount), opening the path would give our own file.
 */
static int stat_fd = -1;

/*
 * Shared between the supervisor and its workers: two carry arrays, the
 * current one named by cur.  A worker steps a copy and then publishes it,
 * so one killed mid-step leaves the last published state.
 */
struct shared {
	_Atomic unsigned long long next_fh;	/* file handles, never reused */
	_Atomic unsigned int cur;
	_Atomic int mode;	/* 0 not yet, 1 kernel's lines, 2 randstat's */
	unsigned int size;
	struct rs_carry_line lines[];	/* 2 * size */
};
static struct shared *sh;
static struct rs_frame fstat_, frs;

struct snap {
	unsigned long long fh;
	char *buf;
	size_t len;
	int used;	/* read from since taken */
};

/*
 * The open files' snapshots, by file handle.  A handle is a number from
 * sh->next_fh, not a pointer: a worker that replaces a killed one gets
 * reads and releases of files opened before, and must know them for
 * strangers (a read then takes a new snapshot).
 */
static struct snap **snaps;
static size_t nsnaps;

static struct snap *snap_find(unsigned long long fh)
{
	size_t i;

	for (i = 0; i < nsnaps; i++)
		if (snaps[i]->fh == fh)
			return snaps[i];
	return NULL;
}

static struct snap *snap_new(unsigned long long fh)
{
	struct snap *s = calloc(1, sizeof(*s)), **t;

	if (!s)
		return NULL;
	t = realloc(snaps, (nsnaps + 1) * sizeof(*snaps));
	if (!t) {
		free(s);
		return NULL;
	}
	snaps = t;
	s->fh = fh;
	snaps[nsnaps++] = s;
	return s;
}

static void snap_drop(unsigned long long fh)
{
	size_t i;

	for (i = 0; i < nsnaps; i++) {
		if (snaps[i]->fh != fh)
			continue;
		free(snaps[i]->buf);
		free(snaps[i]);
		snaps[i] = snaps[--nsnaps];
		return;
	}
}

/* slurp_fd FD: the whole file from offset 0, NUL-terminated, or NULL
 * (errno set).  pread from 0 makes /proc/stat's seq_file start afresh. */
static char *slurp_fd(int fd)
{
	size_t cap = 16384, n = 0;
	char *buf = malloc(cap), *t;
	ssize_t r;
	int e;

	while (buf) {
		if (cap - n < 4097) {
			cap *= 2;
			t = realloc(buf, cap);
			if (!t) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = t;
		}
		r = pread(fd, buf + n, cap - n - 1, (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			free(buf);
			errno = e;
			return NULL;
		}
		if (r == 0) {
			buf[n] = '\0';
			return buf;
		}
		n += (size_t)r;
	}
	errno = ENOMEM;
	return NULL;
}

/* slurp PATH: the same for a file opened now. */
static char *slurp(const char *path)
{
	char *buf;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = slurp_fd(fd);
	e = errno;
	close(fd);
	errno = e;
	return buf;
}

/* The reason /proc/randstat was last refused, said once per change. */
static char last_why[256];

/* Said when the mode changes, and when a refusal's reason (@refused) does. */
static void set_mode(int mode, const char *why, bool refused)
{
	int was = atomic_exchange(&sh->mode, mode);

	if (was == mode && (!refused || !strcmp(last_why, why)))
		return;
	snprintf(last_why, sizeof(last_why), "%s", refused ? why : "");
	if (mode == 2)
		fprintf(stderr, "randstat-fs: serving %s's cpu lines\n",
			rs_path);
	else
		fprintf(stderr,
			"randstat-fs: %s: %s: serving the kernel's cpu lines until it is back\n",
			rs_path, why);
}

/*
 * take: a new frame into S; 0 or -errno.  A /proc/randstat of another
 * format version, or with a damaged cpu line, is not served: the kernel's
 * lines are, and stderr (the journal) says why, once per change.
 */
static int take(struct snap *s)
{
	char *st, *rs, *out, why[200];
	bool refused = false;
	unsigned int cur = atomic_load(&sh->cur), next = !cur;
	struct rs_carry_line *c = sh->lines + next * sh->size;
	size_t len;
	int e;

	st = slurp_fd(stat_fd);
	if (!st)
		return -errno;
	rs = slurp(rs_path);
	e = errno;
	snprintf(why, sizeof(why), "%s", strerror(e));
	rs_frame_parse(&fstat_, st);
	if (rs && rs_randstat_check(rs, why, sizeof(why))) {
		free(rs);
		rs = NULL;
		refused = true;
	} else if (rs && rs_frame_parse(&frs, rs) == 0) {
		free(rs);
		rs = NULL;
		snprintf(why, sizeof(why), "no cpu lines in it");
	}
	memcpy(c, sh->lines + cur * sh->size, sh->size * sizeof(*c));
	rs_carry_step(c, sh->size, &fstat_, rs ? &frs : NULL);
	set_mode(rs ? 2 : 1, why, refused);
	free(rs);
	out = rs_merge(st, c, sh->size, &len);
	free(st);
	if (!out)
		return -ENOMEM;
	atomic_store(&sh->cur, next);
	free(s->buf);
	s->buf = out;
	s->len = len;
	s->used = 0;
	return 0;
}

static void fill_attr(fuse_ino_t ino, struct stat *a)
{
	memset(a, 0, sizeof(*a));
	a->st_ino = ino;
	if (ino == FUSE_ROOT_ID) {
		a->st_mode = S_IFDIR | 0555;
		a->st_nlink = 2;
	} else {
		/* As /proc/stat: root's, 0444, size 0. */
		a->st_mode = S_IFREG | 0444;
		a->st_nlink = 1;
	}
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;

	if (parent != FUSE_ROOT_ID || strcmp(name, "stat") != 0) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = STAT_INO;
	e.attr_timeout = 1.0;
	e.entry_timeout = 1.0;
	fill_attr(STAT_INO, &e.attr);
	fuse_reply_entry(req, &e);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct stat a;

	(void)fi;
	if (ino != FUSE_ROOT_ID && ino != STAT_INO) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_attr(ino, &a);
	fuse_reply_attr(req, &a, 1.0);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t off, struct fuse_file_info *fi)
{
	static const char *const names[] = { ".", "..", "stat" };
	char buf[512];
	size_t n = 0, len;
	struct stat a;
	off_t i;

	(void)fi;
	if (ino != FUSE_ROOT_ID) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	for (i = off; i < 3; i++) {
		fill_attr(i == 2 ? STAT_INO : FUSE_ROOT_ID, &a);
		len = fuse_add_direntry(req, buf + n, sizeof(buf) - n,
					names[i], &a, i + 1);
		if (n + len > size || n + len > sizeof(buf))
			break;
		n += len;
	}
	fuse_reply_buf(req, buf, n);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	unsigned long long fh;
	struct snap *s;
	int r;

	if (ino != STAT_INO) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EACCES);
		return;
	}
	fh = atomic_fetch_add(&sh->next_fh, 1);
	s = snap_new(fh);
	if (!s) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	r = take(s);
	if (r) {
		snap_drop(fh);
		fuse_reply_err(req, -r);
		return;
	}
	fi->fh = fh;
	fi->direct_io = 1;
	fuse_reply_open(req, fi);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct snap *s = snap_find(fi->fh);
	int r;

	(void)ino;
	if (!s) {
		/* Opened under a worker that was killed: a new frame. */
		s = snap_new(fi->fh);
		if (!s) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		s->used = 1;
	}
	if ((off == 0 && s->used) || !s->buf) {
		r = take(s);
		if (r) {
			fuse_reply_err(req, -r);
			return;
		}
	}
	s->used = 1;
	if (off < 0 || (size_t)off >= s->len) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	if (size > s->len - (size_t)off)
		size = s->len - (size_t)off;
	fuse_reply_buf(req, s->buf + off, size);
}

static void op_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	(void)ino;
	snap_drop(fi->fh);
	fuse_reply_err(req, 0);
}

static const struct fuse_lowlevel_ops ops = {
	.lookup = op_lookup,
	.getattr = op_getattr,
	.readdir = op_readdir,
	.open = op_open,
	.read = op_read,
	.release = op_release,
};

static volatile sig_atomic_t stop_sig;
static void on_stop(int sig)
{
	stop_sig = sig;
}

/* worker: serve on a clone of the session's descriptor; never returns. */
static void worker(struct fuse_session *se)
{
	int master = fuse_session_fd(se), fd;
	uint32_t m = (uint32_t)master;

	prctl(PR_SET_PDEATHSIG, SIGTERM);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, RS_FUSE_DEV_IOC_CLONE, &m) < 0) {
		fprintf(stderr,
			"randstat-fs: cloning the /dev/fuse descriptor: %s (a killed worker will hang its readers)\n",
			strerror(errno));
	} else if (dup2(fd, master) < 0) {
		fprintf(stderr, "randstat-fs: dup2: %s\n", strerror(errno));
		_exit(1);
	} else {
		close(fd);
	}
	_exit(fuse_session_loop(se) == 0 ? 0 : 1);
}

/* What the command line gives, besides FUSE's options (fuse_opt_parse). */
struct fs_conf {
	char *stat;
	char *randstat;
	int help;
	int version;
};

enum { KEY_HELP, KEY_VERSION, KEY_DEBUG };

#define FS_OPT(t, p) { t, offsetof(struct fs_conf, p), 0 }

static const struct fuse_opt fs_opts[] = {
	FS_OPT("--stat %s", stat),
	FS_OPT("--stat=%s", stat),
	FS_OPT("--randstat %s", randstat),
	FS_OPT("--randstat=%s", randstat),
	FUSE_OPT_KEY("-h", KEY_HELP),
	FUSE_OPT_KEY("--help", KEY_HELP),
	FUSE_OPT_KEY("-V", KEY_VERSION),
	FUSE_OPT_KEY("--version", KEY_VERSION),
	FUSE_OPT_KEY("-d", KEY_DEBUG),
	FUSE_OPT_END
};

/*
 * fuse_opt_parse's call for what fs_opts does not store: -h and -V
 * noted, -d, -o's options and MOUNTPOINT kept for libfuse (which judges
 * -o's), any other option refused.  1 keeps @arg, 0 drops it, -1 stops.
 */
static int fs_opt_proc(void *data, const char *arg, int key,
		       struct fuse_args *outargs)
{
	struct fs_conf *c = data;

	(void)outargs;
	switch (key) {
	case KEY_HELP:
		c->help = 1;
		return 0;
	case KEY_VERSION:
		c->version = 1;
		return 0;
	case FUSE_OPT_KEY_OPT:
		if (arg[0] != '-')
			return 1;	/* one of -o's: libfuse's to judge */
		fprintf(stderr, "randstat-fs: unknown option: %s\n", arg);
		return -1;
	default:			/* -d, MOUNTPOINT */
		return 1;
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: randstat-fs [--stat FILE] [--randstat FILE] [-o OPTIONS] [-d] MOUNTPOINT\n"
		"       randstat-fs --help | --version\n"
		"  Serves MOUNTPOINT/stat: FILE (/proc/stat) with its cpu lines from\n"
		"  /proc/randstat, counters made monotonic.  Stays in the foreground.\n"
		"  Exit status: 0 unmounted or stopped, 1 usage error, 2 FILE or\n"
		"  /proc/randstat could not be read or is of another format version,\n"
		"  5 another failure (the mount, memory).\n");
}

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fs_conf conf = { .stat = NULL };
	struct fuse_cmdline_opts o;
	struct fuse_session *se;
	struct fuse_buf buf = { .mem = NULL };
	struct sigaction sa;
	struct statfs sf;
	unsigned int size;
	int r, status, ret = RS_EXIT_FAIL;
	time_t window = 0;
	unsigned int respawns = 0;
	pid_t pid;
	long ncpu;

	memset(&o, 0, sizeof(o));
	if (fuse_opt_parse(&args, &conf, fs_opts, fs_opt_proc) != 0) {
		usage(stderr);
		ret = RS_EXIT_USAGE;
		goto out_args;
	}
	if (conf.help) {
		usage(stdout);
		ret = rs_output_error("randstat-fs");
		goto out_args;
	}
	if (conf.version) {
		ret = rs_print_version("randstat-fs");
		goto out_args;
	}
	if (conf.stat)
		stat_path = conf.stat;
	if (conf.randstat)
		rs_path = conf.randstat;
	fuse_opt_add_arg(&args, "-o");
	fuse_opt_add_arg(&args,
			 "ro,allow_other,default_permissions,fsname=randstat,subtype=randstat");
	if (fuse_parse_cmdline(&args, &o) != 0 || !o.mountpoint) {
		usage(stderr);
		ret = RS_EXIT_USAGE;
		goto out_args;
	}
	/*
	 * The session now, before anything is read: it judges -o's options
	 * (nothing is mounted yet).  It fails on an option it does not know
	 * or whose value is bad, having said which, and on a lack of memory.
	 */
	errno = 0;
	se = fuse_session_new(&args, &ops, sizeof(ops), NULL);
	if (!se) {
		if (errno == ENOMEM) {
			fprintf(stderr, "randstat-fs: out of memory\n");
		} else {
			fprintf(stderr, "randstat-fs: the FUSE options were refused (see above)\n");
			usage(stderr);
			ret = RS_EXIT_USAGE;
		}
		goto out_args;
	}
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size = (unsigned int)(ncpu > 0 ? ncpu : 1) + 1;
	sh = mmap(NULL, sizeof(*sh) + 2 * size * sizeof(struct rs_carry_line),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || rs_frame_init(&fstat_, size) ||
	    rs_frame_init(&frs, size)) {
		fprintf(stderr, "randstat-fs: out of memory\n");
		goto out_destroy;
	}
	sh->size = size;
	sh->next_fh = 1;
	{
		char *rs = slurp(rs_path), why[200];

		/* a module this randstat-fs cannot read: refuse to start */
		if (rs && rs_randstat_check(rs, why, sizeof(why))) {
			fprintf(stderr, "randstat-fs: %s: %s: not started%s\n",
				rs_path, why,
				strncmp(why, "format version", 14) ? "" :
				" (install the randstat-fs of the module's version)");
			free(rs);
			ret = RS_EXIT_INPUT;
			goto out_destroy;
		}
		free(rs);
	}
	stat_fd = open(stat_path, O_RDONLY | O_CLOEXEC);
	if (stat_fd < 0 || fstatfs(stat_fd, &sf)) {
		fprintf(stderr, "randstat-fs: %s: %s\n", stat_path,
			strerror(errno));
		ret = RS_EXIT_INPUT;
		goto out_destroy;
	}
	if (sf.f_type == FUSE_SUPER_MAGIC) {
		fprintf(stderr,
			"randstat-fs: %s is a FUSE file (randstat-fs's already?): unmount it first (randstat-fs-mount unbind)\n",
			stat_path);
		goto out_destroy;
	}
	{
		/* The file must be readable before we mount over anything. */
		struct snap s = { .buf = NULL };

		r = take(&s);
		if (r) {
			fprintf(stderr, "randstat-fs: %s: %s\n", stat_path,
				strerror(-r));
			ret = r == -ENOMEM ? RS_EXIT_FAIL : RS_EXIT_INPUT;
			goto out_destroy;
		}
		free(s.buf);
	}
	if (fuse_session_mount(se, o.mountpoint) != 0)
		goto out_destroy;
	/* FUSE_INIT, here, so that every worker starts initialised. */
	r = fuse_session_receive_buf(se, &buf);
	if (r <= 0) {
		fprintf(stderr, "randstat-fs: no FUSE_INIT: %s\n",
			strerror(r < 0 ? -r : EIO));
		goto out_unmount;
	}
	fuse_session_process_buf(se, &buf);
	free(buf.mem);
	/* No SA_RESTART: a stop signal must interrupt waitpid. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		pid = fork();
		if (pid < 0) {
			perror("randstat-fs: fork");
			goto out_unmount;
		}
		if (pid == 0)
			worker(se);
		while (waitpid(pid, &status, 0) < 0) {
			if (errno != EINTR) {
				perror("randstat-fs: waitpid");
				goto out_unmount;
			}
			if (stop_sig)
				kill(pid, SIGTERM);
		}
		if (stop_sig) {
			ret = 0;
			break;
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			/* Unmounted from outside. */
			ret = 0;
			break;
		}
		if (WIFSIGNALED(status))
			fprintf(stderr,
				"randstat-fs: worker %d killed by signal %d; starting another\n",
				(int)pid, WTERMSIG(status));
		else
			fprintf(stderr,
				"randstat-fs: worker %d exited with status %d; starting another\n",
				(int)pid, WEXITSTATUS(status));
		if (time(NULL) - window > 10) {
			window = time(NULL);
			respawns = 0;
		}
		if (++respawns > 20) {
			fprintf(stderr,
				"randstat-fs: more than 20 workers died in 10 s; giving up\n");
			goto out_unmount;
		}
	}
out_unmount:
	fuse_session_unmount(se);
out_destroy:
	fuse_session_destroy(se);
out_args:
	fuse_opt_free_args(&args);
	free(o.mountpoint);
	free(conf.stat);
	free(conf.randstat);
	return ret;
}
