/* SPDX-License-Identifier: MIT */
/* xform.h - the game's transforms (doc/formats/anime.md, Posing).
 *
 * A node's local matrix is T * Rx * Ry * Rz * S with angles in degrees;
 * world = parent world * local.  Matrices are 4x4, column-major as glTF
 * stores them, in double so that a chain of nodes loses nothing a float
 * would show.
 */
#ifndef CCSFS_XFORM_H
#define CCSFS_XFORM_H

#include <math.h>
#include <stdbool.h>

typedef double xform[16];

void xform_identity(xform m);
/* out = a * b; out may be a or b. */
void xform_mul(xform out, const xform a, const xform b);
/* T * Rx * Ry * Rz * S of a position, angles in degrees and a scale. */
void xform_trs(xform m, const float t[3], const float r_deg[3],
	       const float s[3]);
/* out = m * (p, 1). */
void xform_point(const xform m, const float p[3], double out[3]);
/* out = m's linear part * v: a direction (a normal) turned; with m NULL,
 * v as it is.  Inline, as xform_unit: every vertex of a scene comes
 * through both, and out of line they cost a third of scene.glb's time. */
static inline void xform_turn(const double *m, const double v[3],
			      double out[3])
{
	if (!m) {
		out[0] = v[0];
		out[1] = v[1];
		out[2] = v[2];
		return;
	}
	double r[3];
	for (int i = 0; i < 3; i++)
		r[i] = m[i] * v[0] + m[4 + i] * v[1] + m[8 + i] * v[2];
	out[0] = r[0];
	out[1] = r[1];
	out[2] = r[2];
}

/* v at unit length, as glTF's normals must be; (0, 0, 1) for a zero or
 * not finite v. */
static inline void xform_unit(const double v[3], float out[3])
{
	double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	if (!(l > 1e-9) || !isfinite(l)) {
		out[0] = out[1] = 0;
		out[2] = 1;
		return;
	}
	for (int i = 0; i < 3; i++)
		out[i] = (float)(v[i] / l);
}
/* The inverse; false (out the identity) when m is singular. */
bool xform_invert(xform out, const xform m);

/* The unit quaternion (x, y, z, w) of Rx * Ry * Rz, angles in degrees. */
void xform_quat_of_xyz(const float r_deg[3], float q[4]);
/* ... and of Rz * Ry * Rx: a glTF camera node's turn from an F_Camera
 * record's angles (Cameras). */
void xform_quat_of_camera(const float r_deg[3], float q[4]);

/* A keyed angle as the game plays it: rounded to 1/65536 of a turn,
 * s16(int(deg * 182.044)) (Time). */
float xform_round_angle(float deg);

#endif
