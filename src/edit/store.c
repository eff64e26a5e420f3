/* SPDX-License-Identifier: MIT */
/* store.c - the overlay's folder on the host: plain files at tree paths,
 * replaced atomically (write, fsync, rename, fsync the folder). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "edit/store.h"
#include "util/vec.h"

struct store {
	char *dir;
	int dirfd;
	int lockfd;
	atomic_uint serial;     /* tmp names */
};

#define TMP_DIR STORE_OWN "/tmp"
/* How long a held lock is waited for: 40 x 50 ms. */
#define LOCK_TRIES 40
#define LOCK_WAIT_US 50000

static int mkdir_at(int dirfd, const char *path)
{
	return mkdirat(dirfd, path, 0755) == 0 || errno == EEXIST ? 0 : -errno;
}

/* Makes the folders above path (a file's path) in the store. */
static int make_parents(struct store *st, const char *path)
{
	char buf[4096];
	if (strlen(path) >= sizeof buf)
		return -ENAMETOOLONG;
	strcpy(buf, path);
	for (char *p = strchr(buf, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		int rc = mkdir_at(st->dirfd, buf);
		*p = '/';
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* fsync of the folder that holds path: its rename or unlink is then on
 * the disc too. */
static int sync_parent(struct store *st, const char *path)
{
	char buf[4096];
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;
	if (n >= sizeof buf)
		return -ENAMETOOLONG;
	memcpy(buf, path, n);
	buf[n] = '\0';
	int fd = openat(st->dirfd, n ? buf : ".", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -errno;
	int rc = fsync(fd) == 0 ? 0 : -errno;
	close(fd);
	return rc;
}

/* Whatever a killed writer left staged is no edit: it goes. */
static void clear_tmp(struct store *st)
{
	int fd = openat(st->dirfd, TMP_DIR, O_RDONLY | O_DIRECTORY);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(fd, e->d_name, 0);
	closedir(d);
}

static int take_lock(struct store *st, char *err, size_t errlen)
{
	st->lockfd = openat(st->dirfd, STORE_OWN "/lock",
			    O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (st->lockfd < 0) {
		snprintf(err, errlen, "%s/" STORE_OWN "/lock: %s", st->dir,
			 strerror(errno));
		return -errno;
	}
	/* A daemon just unmounted may still be ending, the lock still its:
	 * a remount right after waits for it a moment. */
	int e = 0;
	for (int tries = 0; tries < LOCK_TRIES; tries++) {
		if (flock(st->lockfd, LOCK_EX | LOCK_NB) == 0) {
			e = 0;
			break;
		}
		e = errno;
		if (e != EWOULDBLOCK)
			break;
		usleep(LOCK_WAIT_US);
	}
	if (e) {
		snprintf(err, errlen, "%s is the overlay of another mount or "
			 "program (%s/" STORE_OWN "/lock is held): unmount "
			 "it first", st->dir, st->dir);
		return e == EWOULDBLOCK ? -EBUSY : -e;
	}
	char pid[32];
	int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(st->lockfd, 0) == 0 && pwrite(st->lockfd, pid,
						    (size_t)n, 0) < 0)
		return 0;       /* the pid is a courtesy */
	return 0;
}

int store_open(const char *dir, bool lock, struct store **out, char *err,
	       size_t errlen)
{
	struct store *st = calloc(1, sizeof *st);
	if (!st || !(st->dir = strdup(dir))) {
		free(st);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	st->lockfd = -1;
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(e));
		store_close(st);
		return -e;
	}
	st->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = st->dirfd < 0 ? -errno : 0;
	if (rc < 0)
		snprintf(err, errlen, "%s: %s", dir, strerror(-rc));
	if (rc == 0 && (mkdir_at(st->dirfd, STORE_OWN) < 0 ||
			mkdir_at(st->dirfd, TMP_DIR) < 0)) {
		rc = -errno;
		snprintf(err, errlen, "%s/" STORE_OWN ": %s", dir,
			 strerror(errno));
	}
	if (rc == 0 && lock)
		rc = take_lock(st, err, errlen);
	if (rc == 0 && lock)
		clear_tmp(st);
	if (rc < 0) {
		store_close(st);
		return rc;
	}
	*out = st;
	return 0;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	if (st->dirfd > 0)
		close(st->dirfd);
	if (st->lockfd >= 0)
		close(st->lockfd);
	free(st->dir);
	free(st);
}

const char *store_dir(const struct store *st)
{
	return st->dir;
}

int store_stage(struct store *st, char tmp[STORE_TMP_NAME])
{
	for (int tries = 0; tries < 100; tries++) {
		unsigned n = atomic_fetch_add(&st->serial, 1);
		char path[64];
		snprintf(tmp, STORE_TMP_NAME, "%ld-%u", (long)getpid(), n);
		snprintf(path, sizeof path, TMP_DIR "/%s", tmp);
		int fd = openat(st->dirfd, path, O_RDWR | O_CREAT | O_EXCL |
				O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

void store_unstage(struct store *st, const char *tmp)
{
	char path[64];
	snprintf(path, sizeof path, TMP_DIR "/%s", tmp);
	unlinkat(st->dirfd, path, 0);
}

int store_commit(struct store *st, int fd, const char *tmp,
		 const char *path)
{
	char from[64];
	snprintf(from, sizeof from, TMP_DIR "/%s", tmp);
	if (fsync(fd) != 0)
		return -errno;
	int rc = make_parents(st, path);
	if (rc == 0 && renameat(st->dirfd, from, st->dirfd, path) != 0)
		rc = -errno;
	return rc < 0 ? rc : sync_parent(st, path);
}

int store_stat(struct store *st, const char *path, struct stat *sb)
{
	if (fstatat(st->dirfd, *path ? path : ".", sb, AT_SYMLINK_NOFOLLOW) != 0)
		return -errno;
	return S_ISREG(sb->st_mode) ? 0 : -ENOENT;
}

int store_open_file(struct store *st, const char *path, int flags,
		    mode_t mode)
{
	if (flags & O_CREAT) {
		int rc = make_parents(st, path);
		if (rc < 0)
			return rc;
	}
	int fd = openat(st->dirfd, path, flags | O_CLOEXEC | O_NOFOLLOW,
			mode);
	return fd >= 0 ? fd : -errno;
}

int store_remove(struct store *st, const char *path)
{
	if (unlinkat(st->dirfd, path, 0) != 0)
		return -errno;
	return sync_parent(st, path);
}

int store_rename(struct store *st, const char *from, const char *to)
{
	int fd = openat(st->dirfd, from, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	int rc = fsync(fd) == 0 ? 0 : -errno;
	close(fd);
	if (rc == 0)
		rc = make_parents(st, to);
	if (rc == 0 && renameat(st->dirfd, from, st->dirfd, to) != 0)
		rc = -errno;
	if (rc == 0)
		rc = sync_parent(st, to);
	if (rc == 0)
		rc = sync_parent(st, from);
	return rc;
}

int store_read(struct store *st, const char *path, uint8_t **data,
	       size_t *len)
{
	int fd = openat(st->dirfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	struct stat sb;
	int rc = fstat(fd, &sb) == 0 ? 0 : -errno;
	size_t n = rc == 0 ? (size_t)sb.st_size : 0;
	uint8_t *buf = rc == 0 ? malloc(n ? n : 1) : NULL;
	if (rc == 0 && !buf)
		rc = -ENOMEM;
	size_t got = 0;
	while (rc == 0 && got < n) {
		ssize_t r = pread(fd, buf + got, n - got, (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			rc = r < 0 ? -errno : -EIO;
		else
			got += (size_t)r;
	}
	close(fd);
	if (rc < 0) {
		free(buf);
		return rc;
	}
	*data = buf;
	*len = n;
	return 0;
}

/* The names in the folder at path, or NULL with errno. */
static DIR *open_dir(struct store *st, const char *path)
{
	int fd = openat(st->dirfd, *path ? path : ".",
			O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	return d;
}

static bool own_name(const char *path, const char *name)
{
	return !*path && strcmp(name, STORE_OWN) == 0;
}

int store_walk(struct store *st, const char *path, store_file_fn fn,
	       void *ctx)
{
	DIR *d = open_dir(st, path);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	struct dirent *e;
	int rc = 0;
	while (rc == 0 && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    own_name(path, e->d_name))
			continue;
		char sub[4096];
		if ((size_t)snprintf(sub, sizeof sub, "%s%s%s", path,
				     *path ? "/" : "", e->d_name) >= sizeof sub)
			continue;
		struct stat sb;
		if (fstatat(st->dirfd, sub, &sb, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(sb.st_mode))
			rc = store_walk(st, sub, fn, ctx);
		else if (S_ISREG(sb.st_mode))
			fn(ctx, sub);
	}
	closedir(d);
	return rc;
}

int store_names(struct store *st, const char *path, char ***names,
		size_t *count)
{
	*names = NULL;
	*count = 0;
	DIR *d = open_dir(st, path);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	size_t cap = 0;
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    own_name(path, e->d_name))
			continue;
		char *s = strdup(e->d_name);
		if (!s || vec_reserve(*names, &cap, *count + 1, 16) < 0) {
			free(s);
			rc = -ENOMEM;
			break;
		}
		(*names)[(*count)++] = s;
	}
	closedir(d);
	if (rc < 0) {
		for (size_t i = 0; i < *count; i++)
			free((*names)[i]);
		free(*names);
		*names = NULL;
		*count = 0;
	}
	return rc;
}
