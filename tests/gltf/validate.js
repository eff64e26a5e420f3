#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// validate.js - the Khronos glTF validator over GLB files.
//
//   node validate.js FILE.glb|DIR...
//
// A folder is searched for *.glb.  One line per file (errors, warnings,
// infos), each error's code, pointer and message, then a total line.
// Exits 1 when any file has an error (or could not be read), 2 when the
// validator module is missing.  A GLB of ccsfs holds everything it needs
// in its BIN chunk, so an external resource is refused: asking for one is
// itself a fault the validator then reports.
//
// The module: GLTF_VALIDATOR (a folder holding gltf-validator), else the
// build tree's tests/gltf/node (make gltf-validator), else node's search.
'use strict';
const fs = require('fs');
const path = require('path');

function loadValidator() {
	const tries = [];
	if (process.env.GLTF_VALIDATOR)
		tries.push(path.resolve(process.env.GLTF_VALIDATOR));
	tries.push(path.join(process.cwd(), 'tests/gltf/node/node_modules/gltf-validator'));
	tries.push(path.join(__dirname, 'node/node_modules/gltf-validator'));
	tries.push('gltf-validator');
	for (const t of tries) {
		try {
			return require(t);
		} catch (e) {
			if (e.code !== 'MODULE_NOT_FOUND')
				throw e;
		}
	}
	console.error('validate.js: no gltf-validator module (make gltf-validator)');
	process.exit(2);
}

function findGlb(p, out) {
	if (fs.statSync(p).isDirectory()) {
		for (const e of fs.readdirSync(p).sort())
			findGlb(path.join(p, e), out);
	} else if (out.top || p.endsWith('.glb')) {
		out.push(p);
	}
}

async function main() {
	const args = process.argv.slice(2);
	if (!args.length) {
		console.error('usage: validate.js FILE.glb|DIR...');
		process.exit(2);
	}
	const validator = loadValidator();
	const files = [];
	for (const a of args) {
		// a file named on the command line is checked whatever its name
		if (fs.statSync(a).isDirectory())
			findGlb(a, files);
		else
			files.push(a);
	}
	let errors = 0, warnings = 0, infos = 0, bad = 0;
	for (const f of files) {
		let report;
		try {
			report = await validator.validateBytes(new Uint8Array(fs.readFileSync(f)), {
				uri: f,
				maxIssues: 0,       // 0: no limit
				externalResourceFunction: (uri) =>
					Promise.reject('external resource refused: ' + uri),
			});
		} catch (e) {
			console.log(`${f}: not validated: ${e}`);
			bad++;
			continue;
		}
		const is = report.issues;
		console.log(`${f}: ${is.numErrors} errors, ${is.numWarnings} warnings, ${is.numInfos} infos`);
		for (const m of is.messages) {
			// errors and warnings; infos and hints are only counted
			if (m.severity <= 1)
				console.log(`  ${m.severity ? 'warning' : 'error'} ${m.code} at ${m.pointer || '-'}: ${m.message}`);
		}
		errors += is.numErrors;
		warnings += is.numWarnings;
		infos += is.numInfos;
		if (is.numErrors)
			bad++;
	}
	console.log(`total: ${files.length} files, ${bad} with errors; ${errors} errors, ${warnings} warnings, ${infos} infos`);
	process.exit(bad || !files.length ? 1 : 0);
}

main();
