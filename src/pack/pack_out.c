/* SPDX-License-Identifier: MIT */
/* pack_out.c - the output written under a temporary name, then renamed:
 * one archive, a folder, or an image (image.c). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pack/image.h"
#include "pack/pack_internal.h"

/* The folder output is in, for temporary files on its file system. */
static void folder_of(const char *output, char *out, size_t n)
{
	char copy[4096];
	snprintf(copy, sizeof copy, "%s", output);
	snprintf(out, n, "%s", dirname(copy));
}

int pack_out_spill(const char *output, int *fd, struct reason *why)
{
	char dir[4096];
	folder_of(output, dir, sizeof dir);
	*fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (*fd >= 0)
		return 0;
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s/.ccsfs-pack-spill.XXXXXX", dir);
	*fd = mkstemp(tmp);
	if (*fd < 0) {
		reason_set(why, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	unlink(tmp);
	return 0;
}

static const struct change *change_of(const struct job *j,
				      const struct pack_file *f)
{
	for (size_t i = 0; i < j->n; i++)
		if (j->c[i].f == f)
			return &j->c[i];
	return NULL;
}

/* A change's bytes at `at` of out. */
static int write_change(void *ctx, int out, uint64_t at,
			struct pack_progress *pg)
{
	const struct change *c = ctx;
	if (c->how == CHANGE_MEMBERS)
		return pack_members_write(c->members, c->job->spill.fd, out, at,
					  pg);
	if (c->how == CHANGE_BYTES)
		return pack_copy_bytes(out, c->bytes, (size_t)c->new_size, at,
				       pg);
	int fd = open(c->host, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int rc = pack_copy(fd, 0, out, at, c->new_size, pg);
	close(fd);
	return rc;
}

/* A file of the source, changed or not, as the whole of out. */
static int write_file(struct job *j, const struct pack_file *f, int out)
{
	const struct change *c = change_of(j, f);
	if (c) {
		int rc = write_change((void *)c, out, 0, &j->pg);
		if (rc == 0 && ftruncate(out, (off_t)c->new_size) < 0)
			rc = -errno;
		return rc;
	}
	struct blob b;
	int rc = pack_source_blob(&j->s, f, &b);
	if (rc == 0)
		rc = pack_copy(b.fd, b.base, out, 0, b.size, &j->pg);
	pack_source_blob_done(&j->s, &b);
	if (rc == 0) {
		/* A file that did not change keeps its time too. */
		struct timespec t[2] = { { f->mtime, 0 }, { f->mtime, 0 } };
		futimens(out, t);
	}
	return rc;
}

static int write_folder(struct job *j, const char *tmp, struct reason *why)
{
	for (size_t i = 0; i < j->s.count; i++) {
		const struct pack_file *f = &j->s.f[i];
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", tmp, f->path);
		if (f->is_dir) {
			if (mkdir(path, 0755) < 0) {
				reason_set(why, "%s: %s", path, strerror(errno));
				return -errno;
			}
			continue;
		}
		int out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			       f->mode & 0777);
		int rc = out < 0 ? -errno : write_file(j, f, out);
		if (out >= 0 && rc == 0 && fsync(out) < 0)
			rc = -errno;
		if (out >= 0)
			close(out);
		if (rc < 0) {
			reason_set(why, "%s: %s", path, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/* The temporary folder and what was written in it. */
static void remove_tree(const struct job *j, const char *tmp)
{
	for (size_t i = j->s.count; i-- > 0; ) {
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", tmp, j->s.f[i].path);
		if (j->s.f[i].is_dir)
			rmdir(path);
		else
			unlink(path);
	}
	rmdir(tmp);
}

static int out_folder(struct job *j, const char *output, struct reason *why)
{
	struct stat st;
	if (stat(output, &st) == 0) {
		reason_set(why, "%s: exists; a folder is never written over",
			   output);
		return -EEXIST;
	}
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.ccsfs-pack.XXXXXX", output);
	if (!mkdtemp(tmp)) {
		reason_set(why, "%s: %s", tmp, strerror(errno));
		return -errno;
	}
	int rc = write_folder(j, tmp, why);
	if (rc == 0 && rename(tmp, output) < 0) {
		rc = -errno;
		reason_set(why, "%s: %s", output, strerror(errno));
	}
	if (rc < 0)
		remove_tree(j, tmp);
	return rc;
}

static int image_changes(struct job *j, int out, uint64_t *size,
			 struct reason *why)
{
	struct pack_image_change *ic = calloc(j->n ? j->n : 1, sizeof *ic);
	if (!ic)
		return -ENOMEM;
	for (size_t i = 0; i < j->n; i++)
		ic[i] = (struct pack_image_change){ j->c[i].f, j->c[i].new_size,
						    write_change, &j->c[i], 0,
						    false };
	int rc = pack_image_place(&j->s, ic, j->n, size, why);
	if (rc == 0) {
		j->pg.total = *size;
		rc = pack_image_write(&j->s, ic, j->n, *size, out, &j->pg, why);
	}
	free(ic);
	return rc;
}

/* One file: the image, or the archive. */
static int out_file(struct job *j, const char *output, uint64_t *size,
		    struct reason *why)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.ccsfs-pack.XXXXXX", output);
	int out = mkstemp(tmp);
	if (out < 0) {
		reason_set(why, "%s: %s", tmp, strerror(errno));
		return -errno;
	}
	fchmod(out, 0644);
	int rc;
	if (j->s.kind == PACK_IMAGE) {
		rc = image_changes(j, out, size, why);
	} else {
		const struct change *c = change_of(j, &j->s.f[0]);
		*size = c ? c->new_size : j->s.f[0].size;
		j->pg.total = *size;
		rc = write_file(j, &j->s.f[0], out);
		if (rc < 0)
			reason_set(why, "%s: %s", tmp, strerror(-rc));
	}
	if (rc == 0 && fsync(out) < 0) {
		rc = -errno;
		reason_set(why, "%s: %s", tmp, strerror(errno));
	}
	close(out);
	if (rc == 0 && rename(tmp, output) < 0) {
		rc = -errno;
		reason_set(why, "%s: %s", output, strerror(errno));
	}
	if (rc < 0)
		unlink(tmp);
	return rc;
}

int pack_out_write(struct job *j, const char *output, uint64_t *size,
		   struct reason *why)
{
	j->pg.show = j->o->show;
	j->pg.ctx = j->o->show_ctx;
	if (j->s.kind != PACK_FOLDER)
		return out_file(j, output, size, why);
	*size = 0;
	for (size_t i = 0; i < j->s.count; i++) {
		const struct change *c = change_of(j, &j->s.f[i]);
		*size += c ? c->new_size : j->s.f[i].is_dir ? 0 : j->s.f[i].size;
	}
	j->pg.total = *size;
	return out_folder(j, output, why);
}
