/* SPDX-License-Identifier: MIT */
/* fuse_ops.c - low-level FUSE callbacks over the virtual tree. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fuse/fuse_ops.h"
#include "fuse/fuse_write.h"
#include "fuse/spare.h"
#include "tree/tree.h"
#include "util/bufpool.h"

/* An open file needs no state of its own: the node is its inode, and
 * fi->fh is a passed-through file's descriptor plus one (0 for none).  A
 * struct per open leaked whenever the kernel dropped a RELEASE at
 * unmount (valgrind.sh saw it). */
static int host_fd_of(const struct fuse_file_info *fi)
{
	return (int)fi->fh - 1;
}

static struct fs *fs_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

fuse_ino_t fuse_ops_ino(struct node *n)
{
	_Static_assert(sizeof(fuse_ino_t) >= sizeof(uint64_t),
		       "a tree handle fits a FUSE inode number");
	return (fuse_ino_t)tree_handle(n);
}

/* NULL: a handle whose unit, made again, no longer has the node. */
static struct node *node_of(struct fs *fs, fuse_ino_t ino)
{
	return tree_node(fs, (uint64_t)ino);
}

/* How long the kernel may trust what it was told: the source never
 * changes under a read-only mount; an overlay mount's files change with
 * every edit, so it asks again each time. */
static double timeout(void)
{
	return fuse_write_on() ? 0.0 : CCSFS_TIMEOUT;
}

/* A file that exists but cannot be made is listed with size 0; opening
 * it reports the EIO. */
static int node_attr(struct fs *fs, struct node *n, struct stat *st)
{
	int rc = tree_stat(fs, n, st);
	if (rc == 0)
		fuse_write_attr(fs, n, st);
	if (rc == -EIO && tree_is_file(n)) {
		memset(st, 0, sizeof *st);
		st->st_ino = tree_ino(n);
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_uid = fs_uid(fs);
		st->st_gid = fs_gid(fs);
		st->st_mtime = st->st_ctime = st->st_atime = tree_mtime(n);
		return 0;
	}
	return rc;
}

static int fill_entry(struct fs *fs, struct node *n,
		      struct fuse_entry_param *e)
{
	memset(e, 0, sizeof *e);
	int rc = node_attr(fs, n, &e->attr);
	if (rc < 0)
		return rc;
	e->ino = fuse_ops_ino(n);
	e->generation = 1;
	e->attr_timeout = timeout();
	e->entry_timeout = timeout();
	return 0;
}

/* The kernel opens folders itself (one daemon, one session): a folder is
 * then read with one READDIRPLUS and its empty sequel, not with an
 * OPENDIR and a RELEASEDIR around them, a quarter of the requests of
 * ls -lR.  The kernel keeps the listing, as cache_readdir asks below. */
static bool kernel_opens_dirs;

static void ccsfs_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	if (conn->capable & FUSE_CAP_CACHE_SYMLINKS)
		conn->want |= FUSE_CAP_CACHE_SYMLINKS;
	/* A folder the kernel opens itself it also keeps: not while edits
	 * change what a member's folder holds. */
	kernel_opens_dirs = conn->capable & FUSE_CAP_NO_OPENDIR_SUPPORT &&
			    !fuse_write_on();
	/* An O_TRUNC open comes with its flag, not as a truncate after. */
	if (fuse_write_on() && (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC))
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
}

/* Every callback looks at nodes only between these: the tree lets no
 * unit go meanwhile. */
static struct fs *enter(fuse_req_t req)
{
	struct fs *fs = fs_of(req);
	tree_enter(fs);
	return fs;
}

static void lookup(fuse_req_t req, struct fs *fs, fuse_ino_t parent,
		   const char *name)
{
	int err = -ESTALE;
	struct node *dir = node_of(fs, parent);
	struct node *n = dir ? tree_child(fs, dir, name, &err) : NULL;
	struct fuse_entry_param e;
	if (!n && err == -ENOENT && fuse_write_on())
		err = spare_lookup(fs, dir, name, &e);
	if (!n && err == 0) {
		fuse_reply_entry(req, &e);      /* the overlay folder's file */
		return;
	}
	if (!n && err == -ENOENT) {
		/* Remembered as absent: nothing appears later but through
		 * an overlay. */
		memset(&e, 0, sizeof e);
		e.entry_timeout = timeout();
		fuse_reply_entry(req, &e);
		return;
	}
	if (!n) {
		fuse_reply_err(req, -err);
		return;
	}
	int rc = fill_entry(fs, n, &e);
	if (rc < 0)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_entry(req, &e);
}

static void ccsfs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fs *fs = enter(req);
	lookup(req, fs, parent, name);
	tree_leave(fs);
}

static void ccsfs_getattr(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	(void)fi;
	struct fs *fs = enter(req);
	struct stat st;
	uint32_t id;
	int rc;
	if (fuse_write_on() && tree_handle_is_spare(ino, &id)) {
		rc = spare_attr(id, fs_uid(fs), fs_gid(fs), &st);
	} else {
		struct node *n = node_of(fs, ino);
		rc = n ? node_attr(fs, n, &st) : -ESTALE;
	}
	if (rc < 0)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_attr(req, &st, timeout());
	tree_leave(fs);
}

static void ccsfs_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct fs *fs = enter(req);
	struct node *n = node_of(fs, ino);
	if (!n)
		fuse_reply_err(req, ESTALE);
	else if (!tree_is_link(n))
		fuse_reply_err(req, EINVAL);
	else
		fuse_reply_readlink(req, tree_link_target(n));
	tree_leave(fs);
}

/* What opening a folder does, at its OPENDIR or, when the kernel opens
 * folders itself, at its first READDIR: populate it, and tell the tree
 * a listing came (for what it lists ahead).  A folder that failed with
 * nothing in it fails the listing. */
static int dir_opened(struct fs *fs, struct node *n)
{
	if (!n)
		return -ESTALE;
	if (!tree_is_dir(n))
		return -ENOTDIR;
	int rc = tree_dir_open(fs, n);
	return rc < 0 && !tree_kid_count(n) ? rc : 0;
}

static void ccsfs_opendir(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	if (kernel_opens_dirs) {
		fuse_reply_err(req, ENOSYS);
		return;
	}
	struct fs *fs = enter(req);
	int rc = dir_opened(fs, node_of(fs, ino));
	tree_leave(fs);
	if (rc < 0) {
		fuse_reply_err(req, -rc);
		return;
	}
	/* A directory never changes once made but by an edit: the kernel
	 * may keep it. */
	fi->cache_readdir = !fuse_write_on();
	fi->keep_cache = !fuse_write_on();
	fuse_reply_open(req, fi);
}

/* Attributes that cost nothing to tell: no producer has to run, and no
 * member's header has to be read (an unsettled node). */
static bool cheap_attrs(const struct node *n)
{
	if (tree_unsettled(n))
		return false;
	return tree_size_known(n);
}

/* Offsets are positions: "." 1, ".." 2, child i at i + 3.  *named:
 * whether the entry gives the kernel the node (attributes with it). */
/* An entry past the tree's: the overlay folder's file `name`. */
static size_t add_spare(fuse_req_t req, struct fs *fs, struct node *dir,
			const char *name, off_t next, char *buf, size_t room,
			bool plus)
{
	struct fuse_entry_param e;
	if (spare_lookup(fs, dir, name, &e) < 0) {
		memset(&e, 0, sizeof e);
		e.attr.st_mode = S_IFREG;
	}
	if (!plus)
		return fuse_add_direntry(req, buf, room, name, &e.attr, next);
	return fuse_add_direntry_plus(req, buf, room, name, &e, next);
}

static size_t add_entry(fuse_req_t req, struct fs *fs, struct node *dir,
			off_t next, char *buf, size_t room, bool plus)
{
	struct node *n;
	const char *name;
	if (next == 1 || next == 2) {
		struct node *up = tree_parent(dir);
		n = next == 1 ? dir : (up ? up : dir);
		name = next == 1 ? "." : "..";
	} else {
		n = tree_kid_at(dir, next - 3);
		name = tree_name(n);
	}
	struct fuse_entry_param e;
	memset(&e, 0, sizeof e);
	e.attr.st_ino = tree_ino(n);
	e.attr.st_mode = tree_is_dir(n) ? S_IFDIR :
			 tree_is_link(n) ? S_IFLNK : S_IFREG;
	if (!plus)
		return fuse_add_direntry(req, buf, room, name, &e.attr, next);
	/* With no attributes (e.ino 0) the kernel just lists the name; a
	 * file's size may need a producer to run, a folder's mtime its
	 * member's header to be read: both wait for a stat. */
	if (next > 2 && cheap_attrs(n))
		fill_entry(fs, n, &e);
	return fuse_add_direntry_plus(req, buf, room, name, &e, next);
}

static void reply_dir(fuse_req_t req, struct fs *fs, fuse_ino_t ino,
		      size_t size, off_t off, bool plus)
{
	struct node *dir = node_of(fs, ino);
	if (!dir || !tree_is_dir(dir)) {
		fuse_reply_err(req, dir ? ENOTDIR : ESTALE);
		return;
	}
	/* Past its start, a folder may have been let go since (a unit's,
	 * tree.h): made again, it lists the same names in the same order. */
	int rc = kernel_opens_dirs && off == 0 ? dir_opened(fs, dir)
					       : tree_kids_ready(fs, dir);
	if (rc < 0) {
		fuse_reply_err(req, -rc);
		return;
	}
	/* The kernel asks for up to 128 KiB at a time: from the pool, or
	 * every listing of a folder would map, fault in and unmap it. */
	char *buf = bufpool_alloc(size);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	size_t used = 0;
	off_t last = (off_t)tree_kid_count(dir) + 2;
	size_t nspare = 0;
	char **spare = fuse_write_on() ? spare_names(fs, dir, &nspare) : NULL;
	for (off_t next = off + 1; next <= last + (off_t)nspare; next++) {
		size_t need = next <= last ?
			add_entry(req, fs, dir, next, buf + used, size - used,
				  plus) :
			add_spare(req, fs, dir, spare[next - last - 1], next,
				  buf + used, size - used, plus);
		if (need > size - used)
			break;
		used += need;
	}
	spare_names_free(spare, nspare);
	fuse_reply_buf(req, buf, used);
	bufpool_free(buf);
}

static void ccsfs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
			  off_t off, struct fuse_file_info *fi)
{
	(void)fi;
	struct fs *fs = enter(req);
	reply_dir(req, fs, ino, size, off, false);
	tree_leave(fs);
}

static void ccsfs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			      off_t off, struct fuse_file_info *fi)
{
	(void)fi;
	struct fs *fs = enter(req);
	reply_dir(req, fs, ino, size, off, true);
	tree_leave(fs);
}

static void ccsfs_releasedir(fuse_req_t req, fuse_ino_t ino,
			     struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static void ccsfs_open(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	if (fuse_write_open(req, ino, fi))
		return;         /* the overlay's */
	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EROFS);
		return;
	}
	struct fs *fs = enter(req);
	struct node *n = node_of(fs, ino);
	int host_fd;
	int rc = n ? tree_open(fs, n, &host_fd) : -ESTALE;
	tree_leave(fs);
	if (rc < 0) {
		fuse_reply_err(req, -rc);
		return;
	}
	fi->fh = (uint64_t)(host_fd + 1);
	fi->keep_cache = !fuse_write_on();
	fuse_reply_open(req, fi);
}

static void read_node(fuse_req_t req, struct fs *fs, fuse_ino_t ino,
		      size_t size, off_t off, struct fuse_file_info *fi)
{
	struct node *n = node_of(fs, ino);
	if (!n) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	if (tree_reads_copy(n)) {
		char *buf = bufpool_alloc(size ? size : 1);
		ssize_t r = buf ? tree_read(fs, n, buf, size, (uint64_t)off,
					    host_fd_of(fi)) : -ENOMEM;
		if (r < 0)
			fuse_reply_err(req, (int)-r);
		else
			fuse_reply_buf(req, buf, (size_t)r);
		bufpool_free(buf);
		return;
	}
	/* Cached bytes go to the kernel straight from the cache. */
	struct cache_ref ref;
	const uint8_t *p;
	size_t len;
	int rc = tree_bytes(fs, n, (uint64_t)off, size, &ref, &p, &len);
	if (rc < 0) {
		fuse_reply_err(req, -rc);
		return;
	}
	fuse_reply_buf(req, (const char *)p, len);
	cache_put(fs_cache(fs), &ref);
}

static void ccsfs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	if (fuse_write_owns(fi)) {
		fuse_write_read(req, size, off, fi);
		return;
	}
	struct fs *fs = enter(req);
	read_node(req, fs, ino, size, off, fi);
	tree_leave(fs);
}

static void ccsfs_release(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	(void)ino;
	if (fuse_write_owns(fi))
		fuse_write_release(fi);
	else if (host_fd_of(fi) >= 0)
		close(host_fd_of(fi));
	fuse_reply_err(req, 0);
}

static void ccsfs_statfs(fuse_req_t req, fuse_ino_t ino)
{
	(void)ino;
	struct statvfs sv;
	memset(&sv, 0, sizeof sv);
	sv.f_bsize = 4096;
	sv.f_frsize = 4096;
	sv.f_namemax = 1024;
	sv.f_flag = fuse_write_on() ? 0 : ST_RDONLY;
	fuse_reply_statfs(req, &sv);
}

const struct fuse_lowlevel_ops ccsfs_ops = {
	.init = ccsfs_init,
	.lookup = ccsfs_lookup,
	.getattr = ccsfs_getattr,
	.readlink = ccsfs_readlink,
	.opendir = ccsfs_opendir,
	.readdir = ccsfs_readdir,
	.readdirplus = ccsfs_readdirplus,
	.releasedir = ccsfs_releasedir,
	.open = ccsfs_open,
	.read = ccsfs_read,
	.release = ccsfs_release,
	.statfs = ccsfs_statfs,
};
