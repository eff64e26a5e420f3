/* fuse_ops.c - FUSE callbacks over the virtual tree. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fuse_ops.h"
#include "member.h"
#include "tree.h"

struct open_file {
	struct node *node;
	int host_fd;            /* passed-through files; -1 otherwise */
};

static struct fs *current_fs(void)
{
	return fuse_get_context()->private_data;
}

static void *ccsfs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->use_ino = 1;
	cfg->entry_timeout = CCSFS_TIMEOUT;
	cfg->attr_timeout = CCSFS_TIMEOUT;
	cfg->negative_timeout = CCSFS_TIMEOUT;
	cfg->kernel_cache = 1;  /* keep_cache on every open */
	cfg->nullpath_ok = 1;
	return current_fs();
}

static struct node *node_of(const char *path, struct fuse_file_info *fi,
			    int *err)
{
	if (fi && fi->fh)
		return ((struct open_file *)(uintptr_t)fi->fh)->node;
	if (!path) {
		*err = -ENOENT;
		return NULL;
	}
	return tree_lookup(current_fs(), path, err);
}

static int ccsfs_getattr(const char *path, struct stat *st,
			 struct fuse_file_info *fi)
{
	int err = 0;
	struct node *n = node_of(path, fi, &err);
	if (!n)
		return err;
	int rc = tree_stat(current_fs(), n, st);
	if (rc == -EIO) {
		/* The file exists but cannot be made: list it with size 0
		 * and let open() report the EIO. */
		memset(st, 0, sizeof *st);
		st->st_ino = n->ino;
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_uid = current_fs()->uid;
		st->st_gid = current_fs()->gid;
		st->st_mtime = st->st_ctime = st->st_atime = n->mtime;
		return 0;
	}
	return rc;
}

static int ccsfs_readlink(const char *path, char *buf, size_t size)
{
	int err = 0;
	struct node *n = tree_lookup(current_fs(), path, &err);
	if (!n)
		return err;
	if (n->type != NODE_LINK)
		return -EINVAL;
	if (size == 0)
		return -EINVAL;
	strncpy(buf, n->u.link.target, size - 1);
	buf[size - 1] = '\0';
	return 0;
}

/* Attributes that cost nothing to tell: no producer has to run. */
static bool cheap_attrs(const struct node *n)
{
	return n->type != NODE_FILE || atomic_load(&n->size) != SIZE_UNKNOWN;
}

static int ccsfs_readdir(const char *path, void *buf, fuse_fill_dir_t filler,
			 off_t off, struct fuse_file_info *fi,
			 enum fuse_readdir_flags flags)
{
	struct fs *fs = current_fs();
	int err = 0;
	struct node *d = node_of(path, fi, &err);
	if (!d)
		return err;
	int rc = tree_ready(fs, d);
	if (rc < 0 && !d->u.dir.nkids)
		return rc;
	/* Offsets are positions: "." 1, ".." 2, child i at i + 3.  libfuse
	 * passes attributes to the kernel only with non-zero offsets. */
	struct stat st;
	memset(&st, 0, sizeof st);
	st.st_mode = S_IFDIR;
	if (off < 1 && filler(buf, ".", &st, 1, 0))
		return 0;
	if (off < 2 && filler(buf, "..", &st, 2, 0))
		return 0;
	for (uint32_t i = off > 2 ? (uint32_t)(off - 2) : 0;
	     i < d->u.dir.nkids; i++) {
		struct node *k = d->u.dir.kids[i];
		enum fuse_fill_dir_flags fill = 0;
		if ((flags & FUSE_READDIR_PLUS) && cheap_attrs(k)) {
			tree_stat(fs, k, &st);
			fill = FUSE_FILL_DIR_PLUS;
		} else {
			memset(&st, 0, sizeof st);
			st.st_ino = k->ino;
			st.st_mode = k->type == NODE_DIR ? S_IFDIR :
				     k->type == NODE_LINK ? S_IFLNK : S_IFREG;
		}
		if (filler(buf, k->name, &st, (off_t)i + 3, fill))
			break;
	}
	return 0;
}

/* Directories and files both keep an open_file in fh: getattr(NULL, fi)
 * may come for either. */
static int ccsfs_opendir(const char *path, struct fuse_file_info *fi)
{
	struct fs *fs = current_fs();
	int err = 0;
	struct node *n = tree_lookup(fs, path, &err);
	if (!n)
		return err;
	if (n->type != NODE_DIR)
		return -ENOTDIR;
	int rc = tree_ready(fs, n);
	if (rc < 0 && !n->u.dir.nkids)
		return rc;
	struct open_file *of = calloc(1, sizeof *of);
	if (!of)
		return -ENOMEM;
	of->node = n;
	of->host_fd = -1;
	fi->fh = (uint64_t)(uintptr_t)of;
	return 0;
}

static int ccsfs_open(const char *path, struct fuse_file_info *fi)
{
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	struct fs *fs = current_fs();
	int err = 0;
	struct node *n = tree_lookup(fs, path, &err);
	if (!n)
		return err;
	if (n->type == NODE_DIR)
		return -EISDIR;
	struct open_file *of = calloc(1, sizeof *of);
	if (!of)
		return -ENOMEM;
	of->node = n;
	of->host_fd = -1;
	int rc = 0;
	struct cache_ref ref;
	if (n->file_kind == FILE_HOST) {
		of->host_fd = open(n->u.host.path, O_RDONLY | O_CLOEXEC);
		rc = of->host_fd < 0 ? -errno : 0;
	} else if (n->file_kind == FILE_VIEW) {
		/* Fail here, not in read: the page cache may never ask. */
		rc = member_view_bytes(fs, n, &ref);
		if (rc == 0)
			cache_put(fs->cache, &ref);
	} else {
		rc = tree_made_bytes(fs, n, &ref);
		if (rc == 0)
			cache_put(fs->cache, &ref);
	}
	if (rc < 0) {
		free(of);
		return rc;
	}
	fi->fh = (uint64_t)(uintptr_t)of;
	fi->keep_cache = 1;
	return 0;
}

static int ccsfs_read(const char *path, char *buf, size_t size, off_t off,
		      struct fuse_file_info *fi)
{
	(void)path;
	struct open_file *of = (struct open_file *)(uintptr_t)fi->fh;
	if (off < 0)
		return -EINVAL;
	ssize_t r = tree_read(current_fs(), of->node, buf, size,
			      (uint64_t)off, of->host_fd);
	return (int)r;
}

static int ccsfs_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	struct open_file *of = (struct open_file *)(uintptr_t)fi->fh;
	if (of->host_fd >= 0)
		close(of->host_fd);
	free(of);
	return 0;
}

static int ccsfs_statfs(const char *path, struct statvfs *sv)
{
	(void)path;
	memset(sv, 0, sizeof *sv);
	sv->f_bsize = 4096;
	sv->f_frsize = 4096;
	sv->f_namemax = 1024;
	sv->f_flag = ST_RDONLY;
	return 0;
}

static void ccsfs_destroy(void *private_data)
{
	(void)private_data;
}

const struct fuse_operations ccsfs_ops = {
	.init = ccsfs_init,
	.destroy = ccsfs_destroy,
	.getattr = ccsfs_getattr,
	.readlink = ccsfs_readlink,
	.opendir = ccsfs_opendir,
	.readdir = ccsfs_readdir,
	.releasedir = ccsfs_release,
	.open = ccsfs_open,
	.read = ccsfs_read,
	.release = ccsfs_release,
	.statfs = ccsfs_statfs,
};
