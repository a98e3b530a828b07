/**
 * Writers of the standard formats of CONTRACT section 13, and the reader of REA's in-toto
 * attestations: an in-toto Statement v1 in a DSSE envelope ({@link InTotoAttestation}, read back
 * by {@link InTotoEnvelopeReader}), a CycloneDX 1.6 JSON BOM ({@link CycloneDxBom}) and a SARIF
 * 2.1.0 log ({@link SarifLog}). Each takes REA's own model types (or the small input records
 * declared here) and produces bytes; none of them inspects a file. The field-by-field
 * description and the decisions are in {@code docs/formats.md}.
 */
@NullMarked
package dev.rea.core.internal.formats;

import org.jspecify.annotations.NullMarked;
