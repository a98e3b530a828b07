package dev.rea.core.internal.set;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.EvidenceVerifier;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.evidence.RecordChecks;
import dev.rea.core.internal.io.StrictJson;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JsonToken;

/**
 * Reads a set bundle back (CONTRACT sections 5 and 9): {@code {"schema": "rea.bundle.v1",
 * "records": [set record, member record...]}}, strictly and authenticated before anything is
 * used.
 *
 * <ol>
 *   <li>the whole input through {@link StrictJson} (size bound, UTF-8, syntax, duplicate keys,
 *       depth), then the bundle's shape; the first record must be a {@code rea.model-set.v1}
 *       record ({@link SetRecordParser});
 *   <li>the member records, each exactly as written, go through the file records' importer and
 *       verifier ({@link EvidenceVerifier#importVerified}) as a bundle of their own: their
 *       schema, checks, identity and signature; their field names are reported as in that
 *       bundle ({@code records[i]} counting members from 0);
 *   <li>the set record: its text is the record REA writes for what was parsed (same RFC 8785
 *       form), its {@code evidence_id} is the SHA-256 of its identity-free canonical form, and
 *       its Ed25519 signature verifies with a trusted key;
 *   <li>the set record's {@code members} match the member records one for one (count, order,
 *       and each entry's path, evidence_id, format, sizes, digests and totals), and its types and
 *       totals are the sums over them.
 * </ol>
 *
 * Every refusal is {@code invalid_input} / {@code evidence_rejected}. Stateless and thread-safe.
 */
public final class SetBundleReader {
  private SetBundleReader() {}

  /**
   * A set bundle read back.
   *
   * @param set the authenticated set record
   * @param members the authenticated member records, in member order
   */
  public record Read(ModelSetRecord set, List<EvidenceRecord> members) {
    public Read {
      Objects.requireNonNull(set, "set");
      members = List.copyOf(members);
    }
  }

  /**
   * @param json the bundle
   * @param verifier the file records' verifier (its importer bounds the input)
   * @param ring the trusted keys
   * @return the set and its members
   * @throws ReaException {@code evidence_rejected} for any failure
   */
  public static Read read(byte[] json, EvidenceVerifier verifier, KeyRing ring)
      throws ReaException {
    long max = verifier.importer().maxInputBytes();
    ModelSetRecord set;
    byte[] setText;
    List<long[]> spans = new ArrayList<>();
    try (StrictJson j = StrictJson.open(json, max, verifier.importer().maxDepth(),
        Constraint.EVIDENCE_REJECTED, "evidence")) {
      j.startObject(() -> "bundle");
      String schema = null;
      StrictJson.Value setValue = null;
      long[] setSpan = null;
      boolean records = false;
      String name;
      while ((name = j.nextName()) != null) {
        if (name.equals("schema")) {
          schema = j.string(() -> "schema");
        } else if (name.equals("records")) {
          records = true;
          j.startArray(() -> "records");
          int i = 0;
          while (j.nextElement()) {
            long start = j.offset();
            if (j.current() != JsonToken.START_OBJECT) {
              throw j.error("records[" + i + "]", "expected an object");
            }
            if (i == 0) {
              setValue = j.readValue(() -> "records[0]");
              setSpan = new long[] {start, j.parser().currentLocation().getByteOffset()};
            } else {
              j.skipValue();
              spans.add(new long[] {start, j.parser().currentLocation().getByteOffset()});
            }
            i++;
          }
        } else {
          throw j.error(name, "a bundle has only schema and records");
        }
      }
      if (!EvidenceJson.BUNDLE_SCHEMA.equals(schema) || !records || setValue == null
          || setSpan == null) {
        throw RecordChecks.reject("schema",
            "a set bundle is {\"schema\": \"rea.bundle.v1\", \"records\": [set record, member"
                + " records...]}");
      }
      set = new SetRecordParser("records[0].").parse(setValue);
      setText = Arrays.copyOfRange(json, (int) setSpan[0], (int) setSpan[1]);
    }
    if (spans.isEmpty()) {
      // Checked here: the members' own bundle would be empty, and its refusal would say that a
      // bundle holds at least one record, of a bundle that holds one.
      throw RecordChecks.reject("records",
          "a set bundle holds the set record and then every member's record; this one holds"
              + " the set record only");
    }
    List<EvidenceRecord> members;
    try {
      members = verifier.importVerified(memberBundle(json, spans)).records();
    } catch (ReaException e) {
      throw inBundle(e, spans);
    }
    authenticate(set, setText, ring);
    match(set, members);
    return new Read(set, members);
  }

  /** @return whether a bundle's first record is a set record (cheap look at the text) */
  public static boolean looksLikeSetBundle(byte[] json) {
    String head = new String(json, 0, Math.min(json.length, 256), StandardCharsets.UTF_8);
    return head.contains("\"" + ModelSetRecord.SCHEMA + "\"");
  }

  /** The start of the bundle {@link #memberBundle} makes, before the first member's bytes. */
  private static final byte[] MEMBERS_OPEN =
      ("{\"schema\":\"" + EvidenceJson.BUNDLE_SCHEMA + "\",\"records\":[")
          .getBytes(StandardCharsets.US_ASCII);

  /**
   * A member's failure as the given bundle places it: the members were read as a bundle of their
   * own ({@link #memberBundle}), where member k is {@code records[k]} at other byte offsets, while
   * in the given bundle it is {@code records[k + 1]}, after the set record.
   */
  static ReaException inBundle(ReaException e, List<long[]> spans) {
    String message = e.getMessage();
    String field = e.field();
    Matcher m = field == null ? null : MEMBER_FIELD.matcher(field);
    String moved = null;
    if (field != null && m != null && m.lookingAt()) {
      moved = "records[" + (Long.parseLong(m.group(1)) + 1) + "]" + field.substring(m.end());
      message = message.replace(" at " + field, " at " + moved);
    }
    Long offset = e.offset();
    long original = -1;
    if (offset != null) {
      long start = MEMBERS_OPEN.length;
      for (long[] span : spans) {
        long length = span[1] - span[0];
        if (offset >= start && offset <= start + length) {
          original = span[0] + (offset - start);
          message = message.replace("(byte " + offset + ")", "(byte " + original + ")");
          break;
        }
        start += length + 1; // the comma between members
      }
    }
    ReaException.Builder b = e.toBuilder(message);
    if (moved != null) {
      b.field(moved);
    }
    if (original >= 0) {
      b.offset(original);
    }
    return b.build();
  }

  private static final Pattern MEMBER_FIELD = Pattern.compile("records\\[(\\d+)\\]");

  private static byte[] memberBundle(byte[] json, List<long[]> spans) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(json.length);
    out.write(MEMBERS_OPEN, 0, MEMBERS_OPEN.length);
    for (int i = 0; i < spans.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      long[] s = spans.get(i);
      out.write(json, (int) s[0], (int) (s[1] - s[0]));
    }
    out.write(']');
    out.write('}');
    return out.toByteArray();
  }

  private static void authenticate(ModelSetRecord set, byte[] text, KeyRing ring)
      throws ReaException {
    byte[] written = EvidenceIds.canonicalize(SetRecordJson.recordBytes(set, true));
    byte[] read;
    try {
      read = EvidenceIds.canonicalize(text);
    } catch (RuntimeException e) {
      throw RecordChecks.reject("records[0]", "the record cannot be put in canonical form");
    }
    if (!Arrays.equals(written, read)) {
      throw RecordChecks.reject("records[0]",
          "a value is not in the form REA writes for a set record");
    }
    EvidenceIds.Identity id = SetRecordJson.identity(set);
    if (!id.evidenceId().equals(set.evidenceId())) {
      throw RecordChecks.reject("records[0].evidence_id",
          "evidence_id " + set.evidenceId() + " does not match the content (" + id.evidenceId()
              + ")");
    }
    Authentication a = set.authentication();
    if (a == null) {
      throw RecordChecks.reject("records[0].authentication", "the record is not signed");
    }
    if (!EvidenceSigner.SCHEME.equals(a.scheme())) {
      throw RecordChecks.reject("records[0].authentication.scheme", "scheme must be ed25519");
    }
    PublicKey key = RecordChecks.EVIDENCE_ID.matcher(a.keyId()).matches()
        ? ring.trustedKey(a.keyId()) : null;
    if (key == null) {
      throw RecordChecks.reject("records[0].authentication.key_id",
          "the record is signed by key " + ReaException.truncateForMessage(a.keyId())
              + ", which is not trusted; place its public key in "
              + ring.home().resolve(KeyRing.TRUSTED_DIR) + " to trust it");
    }
    byte[] sig;
    try {
      sig = Base64.getDecoder().decode(a.signature());
    } catch (IllegalArgumentException e) {
      sig = new byte[0];
    }
    if (sig.length != 64 || !KeyRing.verify(key, id.canonical(), sig)) {
      throw RecordChecks.reject("records[0].authentication.signature",
          "the signature does not verify with key " + a.keyId());
    }
  }

  private static void match(ModelSetRecord set, List<EvidenceRecord> members)
      throws ReaException {
    if (set.members().size() != members.size()) {
      throw RecordChecks.reject("records[0].members",
          "the set record lists " + set.members().size() + " members but the bundle holds "
              + members.size() + " member records");
    }
    checkKind(set, members);
    SetRecordBuilder sums = new SetRecordBuilder(set.request(), set.observedAt(), set.set());
    for (int i = 0; i < members.size(); i++) {
      ModelSetRecord.Member expected = ModelSetRecord.Member.of(i, members.get(i));
      if (!expected.equals(set.members().get(i))) {
        throw RecordChecks.reject("records[0].members[" + i + "]",
            "the entry does not match member record " + (i + 1) + " of the bundle ("
                + members.get(i).evidenceId() + ")");
      }
      sums.add(members.get(i));
    }
    ModelSetRecord again = sums.complete(List.of());
    if (!again.types().equals(set.types()) || !again.totals().equals(set.totals())) {
      throw RecordChecks.reject("records[0].types",
          "the set record's types or totals are not the sums over its member records");
    }
  }

  /**
   * What REA never writes, whatever the signature: a set of one of several members, a split set
   * holding a file that is not GGUF, or a tensor name in two members (CONTRACT section 9: the
   * set inspection rejects each).
   */
  private static void checkKind(ModelSetRecord set, List<EvidenceRecord> members)
      throws ReaException {
    String kind = set.set().kind();
    if (kind.equals("single_file") && members.size() != 1) {
      throw RecordChecks.reject("records[0].set.kind",
          "a single_file set has one member, not " + members.size());
    }
    for (int i = 0; i < members.size(); i++) {
      String format = members.get(i).artifact().format();
      if (kind.equals("gguf_split") && !format.equals("gguf")) {
        throw RecordChecks.reject("records[" + (i + 1) + "].artifact.format",
            "a gguf_split set's members are GGUF files, not " + format);
      }
      if (kind.equals("safetensors_index") && !format.equals("safetensors")) {
        throw RecordChecks.reject("records[" + (i + 1) + "].artifact.format",
            "a safetensors_index set's members are safetensors files, not " + format);
      }
    }
    java.util.Map<String, Integer> owner = new java.util.HashMap<>();
    for (int i = 0; i < members.size(); i++) {
      for (dev.rea.core.evidence.TensorRow t : members.get(i).tensors()) {
        Integer before = owner.putIfAbsent(t.name(), i);
        if (before != null) {
          throw RecordChecks.reject("records[" + (i + 1) + "].tensors[" + t.index() + "].name",
              "tensor " + ReaException.truncateForMessage(t.name()) + " is in members "
                  + before + " and " + i + "; a set's tensor names are unique across members");
        }
      }
    }
  }
}
