package dev.rea.core.internal.view;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.FileSnapshot;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.internal.io.IoFailures;
import dev.rea.core.internal.io.StringAllowance;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.Limits;
import dev.rea.core.view.ArrayView;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import tools.jackson.core.JsonGenerator;

/**
 * Pages through every element of one GGUF array, read again from the model file the Evidence
 * names ({@link ArrayView}; docs/evidence.md, "Array element pages").
 *
 * <p>The file must still be the one the Evidence describes: its size, modification time and
 * (where recorded) device and inode are compared with {@code artifact.identity} before the read
 * and again after it, and the bytes read are hashed as they go: the array's bytes must have the
 * row's {@code value_sha256} and the first {@code header_length} bytes the record's {@code
 * header_sha256}. Anything else is {@code execution_failure} / {@code target_changed}, and no
 * element is returned. The walk to the array trusts nothing it has not yet verified: every count
 * and length is checked against the bytes left before the header's recorded end (the input's
 * header ceiling), nothing is allocated from a declared count, and only the elements that fit
 * the page ({@link ViewPages#PAGE_BUDGET_BYTES}) are decoded.
 *
 * <p>Page: {@code {"kind": "model-artifact-array-page", "parent_evidence_id", "source": {path,
 * format, header_sha256, file_size}, "key", "element_type", "count", "value_sha256", "offset",
 * "limit", "next_offset": null|n, "elements": [...], "elements_omitted": [indices]}}. Elements are
 * written as the record writes preview elements (CONTRACT section 2); a nested array element is
 * {@code {"element_type", "count"}}; an element too large for any page is null and its index is
 * listed in {@code elements_omitted}. {@code count}, {@code offset} and {@code next_offset} are
 * decimal strings (element counts, CONTRACT section 2).
 */
public final class ArrayElementPages {
  /** {@code kind} of a page. */
  public static final String KIND = "model-artifact-array-page";

  /** Bytes kept free of elements for the page's other fields beyond the measured envelope. */
  private static final int SLACK = 256;

  private ArrayElementPages() {}

  /**
   * Answers one array view.
   *
   * @param record the Evidence (a GGUF record whose ARRAY row carries {@code value_sha256})
   * @param view the view
   * @param access how the model file is looked at and opened
   * @param cancellation checked before each read
   * @return the page, UTF-8 JSON of at most {@link ViewPages#PAGE_BUDGET_BYTES} bytes
   * @throws ReaException {@code bad_view} (no such ARRAY key, not GGUF, Evidence without the
   *     row's {@code value_sha256}); {@code target_changed} (the file is not the one described);
   *     {@code target_unavailable} / {@code io_error} as for an inspection; {@code cancelled}
   */
  public static byte[] answer(
      EvidenceRecord record, ArrayView view, FileAccess access, Cancellation cancellation)
      throws ReaException {
    MetadataRow row = arrayRow(record, view.key());
    Artifact a = record.artifact();
    Path path = Path.of(a.path());
    FileSnapshot before = stat(access, path);
    checkIdentity(a.identity(), before);
    ArrayPageWalk.Result result;
    try (SeekableByteChannel ch = access.open(path)) {
      HeaderInput in =
          new HeaderInput(ch, before.size(), EvidenceIds.sha256(), cancellation);
      FormatFacts.Gguf facts = (FormatFacts.Gguf) record.formatFacts();
      in.order("big".equals(facts.byteOrder()) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
      int elementsBudget = ViewPages.PAGE_BUDGET_BYTES - envelopeBytes(record, row, view) - SLACK;
      result = ArrayPageWalk.read(in, record, row, view, elementsBudget);
    } catch (IOException e) {
      throw ReaException.builder(
              Constraint.IO_ERROR, "reading " + a.path() + " failed: " + IoFailures.describe(e))
          .cause(e)
          .build();
    }
    FileSnapshot after = stat(access, path);
    String changes = before.changesTo(after);
    if (changes != null) {
      throw changed("its " + changes + " changed while it was read");
    }
    return page(record, row, view, result);
  }

  /** The ARRAY row of {@code key}, with its digest, in a GGUF record. */
  private static MetadataRow arrayRow(EvidenceRecord record, String key) throws ReaException {
    if (!(record.formatFacts() instanceof FormatFacts.Gguf)) {
      throw badView("collection", "array views page GGUF arrays; this Evidence is not of a GGUF file");
    }
    for (MetadataRow r : record.metadata()) {
      if (r.key().equals(key)) {
        if (r.type() != ValueType.ARRAY) {
          throw badView("key", "metadata key \"" + ReaException.truncateForMessage(key)
              + "\" is a " + r.type() + ", not an ARRAY");
        }
        if (r.valueSha256() == null) {
          throw badView("key", "the Evidence has no value_sha256 for \""
              + ReaException.truncateForMessage(key)
              + "\" (it was saved before array digests existed): inspect the file again");
        }
        return r;
      }
    }
    throw badView("key", "the Evidence has no metadata key \"" + ReaException.truncateForMessage(key) + "\"");
  }

  private static FileSnapshot stat(FileAccess access, Path path) throws ReaException {
    try {
      return access.stat(path);
    } catch (IOException e) {
      throw ReaException.builder(
              Constraint.TARGET_CHANGED,
              "the model file the Evidence names cannot be read: " + path + ": " + IoFailures.describe(e))
          .diagnostic("reason", IoFailures.describe(e))
          .cause(e)
          .build();
    }
  }

  /** Size, modification time and (where the Evidence records them) device and inode. */
  static void checkIdentity(FileIdentity recorded, FileSnapshot now) throws ReaException {
    if (recorded.device() != null
        && (now.device() == null || !recorded.device().equals(Long.toUnsignedString(now.device())))) {
      throw changed("its device differs from the Evidence's (the path names another file)");
    }
    if (recorded.inode() != null
        && (now.inode() == null || !recorded.inode().equals(Long.toUnsignedString(now.inode())))) {
      throw changed("its inode differs from the Evidence's (the path names another file)");
    }
    if (recorded.size() != now.size()) {
      throw changed("its size is " + now.size() + " bytes, the Evidence's " + recorded.size());
    }
    if (!recorded.modified().equals(now.modifiedText())) {
      throw changed("its modification time is " + now.modifiedText() + ", the Evidence's "
          + recorded.modified());
    }
  }

  static ReaException changed(String what) {
    return ReaException.builder(
            Constraint.TARGET_CHANGED,
            "the model file is not the one the Evidence describes: " + what)
        .diagnostic("reason", what)
        .build();
  }

  private static ReaException badView(String field, String reason) {
    return ReaException.builder(Constraint.BAD_VIEW, "view rejected: " + reason + " at view." + field)
        .field("view." + field)
        .diagnostic("reason", reason)
        .build();
  }

  /** Bytes of the page without elements (and with the widest next_offset). */
  private static int envelopeBytes(EvidenceRecord record, MetadataRow row, ArrayView view) {
    ArrayPageWalk.Result empty = new ArrayPageWalk.Result(new byte[0], 0, Long.MAX_VALUE, new long[0]);
    return page(record, row, view, empty).length;
  }

  private static byte[] page(
      EvidenceRecord record, MetadataRow row, ArrayView view, ArrayPageWalk.Result result) {
    MetadataValue.ArrayValue a = (MetadataValue.ArrayValue) row.value();
    ByteArrayOutputStream out = new ByteArrayOutputStream(ViewPages.PAGE_BUDGET_BYTES);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      g.writeStartObject();
      g.writeStringProperty("kind", KIND);
      g.writeStringProperty("parent_evidence_id", record.evidenceId());
      g.writeName("source");
      g.writeStartObject();
      g.writeStringProperty("path", record.artifact().path());
      g.writeStringProperty("format", record.artifact().format());
      g.writeStringProperty("header_sha256", record.artifact().headerSha256());
      g.writeStringProperty("file_size", Long.toString(record.artifact().fileSize()));
      g.writeEndObject();
      g.writeStringProperty("key", row.key());
      g.writeStringProperty("element_type", a.elementType().name());
      g.writeStringProperty("count", Long.toUnsignedString(a.count()));
      g.writeStringProperty("value_sha256", row.valueSha256());
      g.writeStringProperty("offset", Long.toString(view.offset()));
      g.writeNumberProperty("limit", view.limit());
      if (result.nextOffset() < 0) {
        g.writeNullProperty("next_offset");
      } else {
        g.writeStringProperty("next_offset", Long.toUnsignedString(result.nextOffset()));
      }
      g.writeName("elements");
      g.writeStartArray();
      g.writeRawValue(new String(result.elements(), java.nio.charset.StandardCharsets.UTF_8));
      g.writeEndArray();
      g.writeName("elements_omitted");
      g.writeStartArray();
      for (long i : result.omitted()) {
        g.writeString(Long.toString(i));
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  /** A string allowance that keeps what it is asked to (the walk measures strings first). */
  static final StringAllowance KEEP =
      new StringAllowance() {
        @Override
        public long beforeString(long utf8Length, long at) {
          return utf8Length;
        }

        @Override
        public void beforeEscapes(long extra, long chargedSoFar, long at) {}
      };

  /** @return lowercase hex of a finished digest */
  static String hex(MessageDigest d) {
    return HexFormat.of().formatHex(d.digest());
  }

  /** @return the nesting limit arrays are skipped within */
  static int nestingLimit() {
    return Limits.defaults().nestingLimit();
  }
}
