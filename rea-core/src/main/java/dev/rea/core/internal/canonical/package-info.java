/**
 * RFC 8785 (JSON Canonicalization Scheme) building blocks, internal to REA (not API): {@link
 * dev.rea.core.internal.canonical.CanonicalSink} writes canonical tokens into bytes, a digest or
 * a comparison; {@link dev.rea.core.internal.canonical.EcmaNumbers} is ECMAScript's
 * Number::toString; {@link dev.rea.core.internal.canonical.JsonTextCanonicalizer} canonicalizes
 * any JSON text. {@code dev.rea.core.evidence.EvidenceIds} uses them for {@code evidence_id}
 * (CONTRACT section 5). The RFC's reference implementation is their test oracle only.
 */
@NullMarked
package dev.rea.core.internal.canonical;

import org.jspecify.annotations.NullMarked;
