/* SPDX-License-Identifier: MIT */
/* fuse_write.c - an overlay mount's writes: a file of the tree written to
 * a staged file and taken as an edit when closed, the overlay folder's
 * own files written in place, truncation, renames and removals. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "edit/overlay.h"
#include "edit/store.h"
#include "fuse/fuse_names.h"
#include "fuse/fuse_write.h"
#include "fuse/spare.h"
#include "tree/tree.h"
#include "util/bufpool.h"
#include "util/log.h"

/* A file opened here.  staged: a file of the tree being written, whose
 * flush puts it at path and takes it as an edit; else fd is a file of
 * the folder (or the listing's text) read and written as it is. */
struct wfile {
	int fd;
	bool staged;
	bool dirty;             /* written since the last flush */
	bool committed;         /* put at its path once */
	char tmp[STORE_TMP_NAME];
	char *path;
	uint64_t ino;           /* the kernel's name for it */
	struct wfile *next;     /* the staged ones open, for SETATTR */
};

static struct {
	pthread_mutex_t lock;
	struct wfile *head;
} open_files = { PTHREAD_MUTEX_INITIALIZER, NULL };

/* fi->fh: the glue's own are a descriptor plus one, below 2^32; a wfile
 * is its address with the top bit set. */
#define WFILE_BIT (UINT64_C(1) << 63)

void fuse_write_set(struct overlay *ov)
{
	spare_set_overlay(ov);
}

bool fuse_write_on(void)
{
	return spare_overlay() != NULL;
}

bool fuse_write_owns(const struct fuse_file_info *fi)
{
	return fi->fh & WFILE_BIT;
}

static struct wfile *wfile_of(const struct fuse_file_info *fi)
{
	return fi && fuse_write_owns(fi) ?
	       (struct wfile *)(uintptr_t)(fi->fh & ~WFILE_BIT) : NULL;
}

/* The staged file open for the kernel's ino, newest first. */
static struct wfile *staged_for(uint64_t ino)
{
	pthread_mutex_lock(&open_files.lock);
	struct wfile *w = open_files.head;
	while (w && w->ino != ino)
		w = w->next;
	pthread_mutex_unlock(&open_files.lock);
	return w;
}

static void wfile_free(struct wfile *w)
{
	if (w->staged) {
		pthread_mutex_lock(&open_files.lock);
		struct wfile **pp = &open_files.head;
		while (*pp && *pp != w)
			pp = &(*pp)->next;
		if (*pp)
			*pp = w->next;
		pthread_mutex_unlock(&open_files.lock);
		if (!w->committed)
			store_unstage(overlay_store(spare_overlay()), w->tmp);
	}
	if (w->fd >= 0)
		close(w->fd);
	free(w->path);
	free(w);
}

static struct wfile *wfile_new(int fd, const char *path, uint64_t ino)
{
	struct wfile *w = calloc(1, sizeof *w);
	if (w && path && !(w->path = strdup(path))) {
		free(w);
		w = NULL;
	}
	if (!w) {
		close(fd);
		return NULL;
	}
	w->fd = fd;
	w->ino = ino;
	return w;
}

void fuse_write_attr(struct fs *fs, struct node *n, struct stat *st)
{
	(void)fs;
	struct overlay *ov = spare_overlay();
	if (!ov)
		return;
	if (tree_is_dir(n))
		st->st_mode = S_IFDIR | 0755;
	if (!tree_is_file(n) || !overlay_editable(ov, n))
		return;
	st->st_mode = S_IFREG | 0644;
	struct wfile *w = staged_for(tree_handle(n));
	struct stat sb;
	char path[4096];
	uint64_t size;
	enum file_kind k = tree_file_kind(n);
	if (w && fstat(w->fd, &sb) == 0)
		st->st_size = sb.st_size;
	else if ((k == FILE_HOST || k == FILE_BLOB) &&
		 tree_node_path(n, path, sizeof path) == 0 &&
		 overlay_disc_file(ov, path, &size))
		st->st_size = (off_t)size;
}

/* The file's bytes as a reader sees them now, written to fd: what a
 * write into the middle of it starts from.  Within tree_enter. */
static int copy_current(struct fs *fs, struct node *n, int fd)
{
	int host_fd = -1;
	int rc = tree_open(fs, n, &host_fd);
	char *buf = rc == 0 ? bufpool_alloc(1 << 20) : NULL;
	if (rc == 0 && !buf)
		rc = -ENOMEM;
	for (uint64_t off = 0; rc == 0;) {
		ssize_t got;
		struct cache_ref ref = { 0 };
		const uint8_t *p = (const uint8_t *)buf;
		if (tree_reads_copy(n)) {
			got = tree_read(fs, n, buf, 1 << 20, off, host_fd);
		} else {
			size_t len = 0;
			int brc = tree_bytes(fs, n, off, 1 << 20, &ref, &p, &len);
			got = brc < 0 ? brc : (ssize_t)len;
		}
		if (got > 0 && pwrite(fd, p, (size_t)got, (off_t)off) != got)
			rc = -EIO;
		cache_put(fs_cache(fs), &ref);
		if (got <= 0) {
			rc = got < 0 ? (int)got : rc;
			break;
		}
		off += (uint64_t)got;
	}
	bufpool_free(buf);
	if (host_fd >= 0)
		close(host_fd);
	return rc;
}

/* A file of the tree opened for writing: a staged file, empty or with
 * the file's bytes.  Within tree_enter. */
static int open_staged(struct fs *fs, struct node *n, bool trunc,
		       struct wfile **out)
{
	struct overlay *ov = spare_overlay();
	if (!tree_is_file(n) || !overlay_editable(ov, n))
		return tree_is_dir(n) ? -EISDIR : -EACCES;
	char path[4096];
	int rc = tree_node_path(n, path, sizeof path);
	if (rc < 0)
		return rc;
	char tmp[STORE_TMP_NAME];
	int fd = store_stage(overlay_store(ov), tmp);
	if (fd < 0)
		return fd;
	rc = trunc ? 0 : copy_current(fs, n, fd);
	struct wfile *w = rc == 0 ? wfile_new(fd, path, tree_handle(n)) : NULL;
	if (!w) {
		if (rc == 0)
			rc = -ENOMEM;
		else
			close(fd);
		store_unstage(overlay_store(ov), tmp);
		return rc;
	}
	memcpy(w->tmp, tmp, sizeof tmp);
	w->staged = true;
	w->dirty = trunc;       /* an emptied file is an edit too */
	pthread_mutex_lock(&open_files.lock);
	w->next = open_files.head;
	open_files.head = w;
	pthread_mutex_unlock(&open_files.lock);
	*out = w;
	return 0;
}

/* The listing's text in a file of its own, read as any other. */
static int open_listing(struct wfile **out)
{
	uint8_t *text;
	size_t len;
	int rc = overlay_edits_text(spare_overlay(), &text, &len);
	if (rc < 0)
		return rc;
	int fd = memfd_create("edits", MFD_CLOEXEC);
	if (fd < 0 || pwrite(fd, text, len, 0) != (ssize_t)len)
		rc = -EIO;
	free(text);
	if (rc < 0) {
		if (fd >= 0)
			close(fd);
		return rc;
	}
	*out = wfile_new(fd, NULL, tree_spare_handle(SPARE_LISTING));
	return *out ? 0 : -ENOMEM;
}

/* A spare handle's file: the listing, or a file of the folder opened
 * with the caller's flags. */
static int open_spare(uint32_t id, int flags, struct wfile **out)
{
	bool writes = (flags & O_ACCMODE) != O_RDONLY;
	if (id == SPARE_LISTING)
		return writes ? -EACCES : open_listing(out);
	char path[4096];
	if (!spare_path_of(id, path, sizeof path))
		return -ESTALE;
	int fd = store_open_file(overlay_store(spare_overlay()), path,
				 flags & (O_ACCMODE | O_TRUNC | O_APPEND), 0);
	if (fd < 0)
		return fd == -ENOENT ? -ESTALE : fd;
	*out = wfile_new(fd, path, tree_spare_handle(id));
	return *out ? 0 : -ENOMEM;
}

/* A disc file whose edit is applied is read from the folder. */
static int open_disc_edit(struct node *n, struct wfile **out)
{
	char path[4096];
	uint64_t size;
	struct overlay *ov = spare_overlay();
	enum file_kind k = tree_is_file(n) ? tree_file_kind(n) : FILE_VIEW;
	if ((k != FILE_HOST && k != FILE_BLOB) ||
	    tree_node_path(n, path, sizeof path) < 0 ||
	    !overlay_disc_file(ov, path, &size))
		return 1;
	int fd = store_open_file(overlay_store(ov), path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	*out = wfile_new(fd, path, tree_handle(n));
	return *out ? 0 : -ENOMEM;
}

bool fuse_write_open(fuse_req_t req, fuse_ino_t ino,
		     struct fuse_file_info *fi)
{
	if (!spare_overlay())
		return false;
	struct fs *fs = fuse_req_userdata(req);
	bool writes = (fi->flags & O_ACCMODE) != O_RDONLY;
	struct wfile *w = NULL;
	uint32_t id;
	int rc;
	tree_enter(fs);
	if (tree_handle_is_spare(ino, &id)) {
		rc = open_spare(id, fi->flags, &w);
	} else {
		struct node *n = tree_node(fs, ino);
		if (!n)
			rc = -ESTALE;
		else if (writes)
			rc = open_staged(fs, n, fi->flags & O_TRUNC, &w);
		else
			rc = open_disc_edit(n, &w);
	}
	tree_leave(fs);
	if (rc == 1)
		return false;   /* the tree's own file, read as it is */
	if (rc < 0) {
		fuse_reply_err(req, -rc);
		return true;
	}
	fi->fh = (uint64_t)(uintptr_t)w | WFILE_BIT;
	fi->direct_io = w->staged || tree_handle_is_spare(ino, &id);
	if (fuse_reply_open(req, fi) != 0)
		wfile_free(w);
	return true;
}

void fuse_write_read(fuse_req_t req, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct wfile *w = wfile_of(fi);
	char *buf = bufpool_alloc(size ? size : 1);
	ssize_t r = buf ? pread(w->fd, buf, size, off) : -1;
	if (r < 0)
		fuse_reply_err(req, buf ? errno : ENOMEM);
	else
		fuse_reply_buf(req, buf, (size_t)r);
	bufpool_free(buf);
}

static void ow_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)ino;
	struct wfile *w = wfile_of(fi);
	if (!w) {
		fuse_reply_err(req, EBADF);
		return;
	}
	ssize_t r = pwrite(w->fd, buf, size, off);
	if (r < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	w->dirty = true;
	fuse_reply_write(req, (size_t)r);
}

/* Puts a staged file at its path and takes its edit: 0, -EINVAL when
 * refused.  Outside tree_enter. */
static int commit(struct wfile *w)
{
	if (!w->staged || !w->dirty)
		return 0;
	struct overlay *ov = spare_overlay();
	int rc = w->committed ? (fsync(w->fd) == 0 ? 0 : -errno)
			      : store_commit(overlay_store(ov), w->fd, w->tmp,
					     w->path);
	if (rc < 0) {
		log_error("overlay: %s: cannot be kept: %s", w->path,
			  strerror(-rc));
		return rc;
	}
	w->committed = true;
	w->dirty = false;
	return overlay_take(ov, w->path);
}

static void ow_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	struct wfile *w = wfile_of(fi);
	fuse_reply_err(req, w ? -commit(w) : 0);
}

void fuse_write_release(struct fuse_file_info *fi)
{
	struct wfile *w = wfile_of(fi);
	if (w) {
		commit(w);
		wfile_free(w);
	}
}

static void ow_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		     struct fuse_file_info *fi)
{
	(void)ino;
	struct wfile *w = wfile_of(fi);
	int rc = !w ? 0 : (datasync ? fdatasync(w->fd) : fsync(w->fd));
	fuse_reply_err(req, rc ? errno : 0);
}

/* A truncate of a file of the tree with none of ours open on it (truncate
 * -s, or the kernel's own after an open): an edit of its own. */
static int truncate_tree_file(struct fs *fs, uint64_t ino, off_t size)
{
	tree_enter(fs);
	struct node *n = tree_node(fs, ino);
	struct wfile *w = NULL;
	int rc = n ? open_staged(fs, n, size == 0, &w) : -ESTALE;
	tree_leave(fs);
	if (rc < 0)
		return rc;
	rc = ftruncate(w->fd, size) == 0 ? 0 : -errno;
	w->dirty = true;
	if (rc == 0)
		rc = commit(w);
	wfile_free(w);
	return rc;
}

static int set_size(struct fs *fs, fuse_ino_t ino, off_t size,
		    struct fuse_file_info *fi)
{
	/* The kernel's truncate of an O_TRUNC open comes by path, with no
	 * handle: it belongs to the file being written. */
	struct wfile *w = wfile_of(fi);
	if (!w)
		w = staged_for(ino);
	if (w) {
		if (ftruncate(w->fd, size) != 0)
			return -errno;
		w->dirty = w->staged;
		return 0;
	}
	uint32_t id;
	if (!tree_handle_is_spare(ino, &id))
		return truncate_tree_file(fs, ino, size);
	char path[4096];
	if (id == SPARE_LISTING)
		return -EACCES;
	if (!spare_path_of(id, path, sizeof path))
		return -ESTALE;
	int fd = store_open_file(overlay_store(spare_overlay()), path,
				 O_WRONLY, 0);
	if (fd < 0)
		return fd;
	int rc = ftruncate(fd, size) == 0 ? 0 : -errno;
	close(fd);
	return rc;
}

static void ow_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int to_set, struct fuse_file_info *fi)
{
	struct fs *fs = fuse_req_userdata(req);
	int rc = to_set & FUSE_SET_ATTR_SIZE ?
		 set_size(fs, ino, attr->st_size, fi) : 0;
	/* Modes, owners and times are the tree's: a chmod or touch after
	 * a save (cp -p, editors) is let pass. */
	struct stat st;
	uint32_t id;
	if (rc == 0 && tree_handle_is_spare(ino, &id)) {
		rc = spare_attr(id, fs_uid(fs), fs_gid(fs), &st);
	} else if (rc == 0) {
		tree_enter(fs);
		struct node *n = tree_node(fs, ino);
		rc = n ? tree_stat(fs, n, &st) : -ESTALE;
		if (rc == 0)
			fuse_write_attr(fs, n, &st);
		tree_leave(fs);
	}
	if (rc < 0)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_attr(req, &st, 0);
}

/* A new file of the folder: the tree has nothing at the name (the
 * kernel looked first). */
static void ow_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, struct fuse_file_info *fi)
{
	(void)mode;
	struct fs *fs = fuse_req_userdata(req);
	char path[4096];
	tree_enter(fs);
	struct node *dir = tree_node(fs, parent);
	int err = 0;
	int rc = !dir ? -ESTALE : !tree_is_dir(dir) ? -ENOTDIR :
		 spare_reserved(dir, name) ? -EACCES :
		 tree_child(fs, dir, name, &err) ? -EEXIST :
		 spare_path(dir, name, path, sizeof path);
	tree_leave(fs);
	int fd = rc < 0 ? rc :
		 store_open_file(overlay_store(spare_overlay()), path,
				 O_CREAT | O_RDWR | (fi->flags & (O_EXCL | O_TRUNC)),
				 0644);
	int64_t id = fd < 0 ? fd : spare_id(path);
	struct fuse_entry_param e;
	memset(&e, 0, sizeof e);
	struct wfile *w = id < 0 ? NULL : wfile_new(fd, path,
						   tree_spare_handle((uint32_t)id));
	rc = fd < 0 ? fd : id < 0 ? (int)id : !w ? -ENOMEM :
	     spare_attr((uint32_t)id, fs_uid(fs), fs_gid(fs), &e.attr);
	if (rc < 0) {
		if (w)
			wfile_free(w);
		else if (fd >= 0)
			close(fd);
		fuse_reply_err(req, -rc);
		return;
	}
	e.ino = w->ino;
	e.generation = 1;
	fi->fh = (uint64_t)(uintptr_t)w | WFILE_BIT;
	fi->direct_io = 1;
	if (fuse_reply_create(req, &e, fi) != 0)
		wfile_free(w);
}

void fuse_write_ops(struct fuse_lowlevel_ops *ops)
{
	ops->write = ow_write;
	ops->flush = ow_flush;
	ops->fsync = ow_fsync;
	ops->setattr = ow_setattr;
	ops->create = ow_create;
	fuse_names_ops(ops);
}
