package dev.rea.core.internal.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceImport;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.evidence.RecordChecks;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GGUF inspection cancelled inside the header keeps the declarations it completed
 * (specification, "Facts and selected queries": "Partial Evidence retains explicit alignment once
 * validated; the default alignment becomes known after metadata completes. Cancellation retains
 * completed declarations with unknown digests and unverified final file identity"): cancelled at
 * every byte of two headers, the partial record holds a prefix of the complete record's metadata
 * and tensors, with the header's digest and every file offset unknown, and passes the record
 * checks an importer applies.
 */
class PartialHeaderCancellationTest {
  @TempDir Path dir;

  private static byte[] gguf(boolean explicitAlignment) {
    GgufBuilder b = GgufBuilder.v3();
    if (explicitAlignment) {
      b.alignment(64);
    }
    return b.kv("general.architecture", GgufBuilder.str("llama"))
        .kv("general.name", GgufBuilder.str("partial"))
        .kv("tokenizer.ggml.tokens", GgufBuilder.stringArray("tok", 30))
        .kv("llama.block_count", GgufBuilder.u32(2))
        .tensor("token_embd.weight", 0, 64, 8)
        .tensor("blk.0.attn_q.weight", 12, 256, 2)
        .tensor("output_norm.weight", 0, 64)
        .bytes();
  }

  @Test
  void explicitAlignmentIsKeptOnceReadAndTheDefaultOnceTheMetadataEnded() throws Exception {
    for (boolean explicit : new boolean[] {true, false}) {
      byte[] bytes = gguf(explicit);
      Path p = Files.write(dir.resolve("p-" + explicit + ".gguf"), bytes);
      EvidenceRecord complete = ModelInspector.standard().inspect(p, HashMode.HEADER);
      long headerLength = complete.artifact().headerLength();
      int withRows = 0;
      int withTensors = 0;
      for (long at = 0; at < headerLength; at++) {
        Refusal e = CancelAt.inspect(p, at, HashMode.HEADER).failure();
        assertThat(e.constraint()).as("at %d", at).isEqualTo(Constraint.CANCELLED);
        EvidenceRecord partial = e.partialEvidence();
        if (at < 24) {
          // The version and counts were not read: nothing is declared yet.
          assertThat(partial).as("at %d", at).isNull();
          continue;
        }
        assertThat(partial).as("at %d", at).isNotNull();
        checkPartial(complete, partial, at, explicit);
        withRows += partial.metadata().isEmpty() ? 0 : 1;
        withTensors += partial.tensors().isEmpty() ? 0 : 1;
      }
      // The cancellations landed inside the metadata and inside the directory too.
      assertThat(withRows).as("explicit %s", explicit).isPositive();
      assertThat(withTensors).as("explicit %s", explicit).isPositive();
    }
  }

  private static void checkPartial(
      EvidenceRecord complete, EvidenceRecord partial, long at, boolean explicit) throws Exception {
    String where = "cancelled at " + at;
    assertThat(partial.status()).as(where).isEqualTo(EvidenceRecord.STATUS_PARTIAL);
    assertThat(partial.coverage().header()).as(where).isEqualTo(Coverage.PARTIAL);
    assertThat(partial.coverage().digest()).isEqualTo(Coverage.UNKNOWN);
    // Tensors may be missing: neither storage nor ranges can be complete.
    assertThat(partial.coverage().storageSizes()).isEqualTo(Coverage.PARTIAL);
    assertThat(partial.coverage().ranges()).isEqualTo(Coverage.PARTIAL);
    assertThat(partial.coverage().finalIdentity()).isEqualTo(Coverage.UNVERIFIED);
    assertThat(partial.artifact().headerSha256()).isNull();
    assertThat(partial.artifact().headerLength()).isBetween(24L, at);
    assertThat(partial.artifact().bytesRead()).isLessThanOrEqualTo(at);
    FormatFacts.Gguf facts = (FormatFacts.Gguf) partial.formatFacts();
    assertThat(facts.tensorDataOffset()).isNull();

    // The completed declarations: a prefix of the complete record's.
    List<MetadataRow> rows = partial.metadata();
    assertThat(rows).isEqualTo(complete.metadata().subList(0, rows.size()));
    List<TensorRow> tensors = partial.tensors();
    assertThat(tensors.size()).isLessThanOrEqualTo(complete.tensors().size());
    if (!tensors.isEmpty()) {
      assertThat(rows).as(where).hasSameSizeAs(complete.metadata());
    }
    for (int i = 0; i < tensors.size(); i++) {
      TensorRow whole = complete.tensors().get(i);
      TensorRow t = tensors.get(i);
      assertThat(t.fileOffset()).isNull();
      assertThat(t.storageValidation()).isEqualTo(StorageValidation.UNKNOWN);
      assertThat(t)
          .isEqualTo(
              new TensorRow(
                  whole.index(), whole.name(), whole.type(), whole.typeId(), whole.shape(),
                  whole.parameterCount(), whole.offset(), null, whole.byteLength(),
                  StorageValidation.UNKNOWN));
    }

    // The first limitation says how much of what the header declares was read, so that totals
    // over the rows read are not taken for the file's.
    assertThat(partial.limitations()).as(where).isNotEmpty();
    dev.rea.core.evidence.Limitation stopped = partial.limitations().get(0);
    assertThat(stopped.code()).isEqualTo("partial_header");
    assertThat(stopped.message())
        .as(where)
        .isEqualTo(
            "the read stopped inside the header, after "
                + rows.size()
                + " of its "
                + complete.metadata().size()
                + " metadata pairs (metadata_kv_count) and "
                + tensors.size()
                + " of its "
                + complete.tensors().size()
                + " tensor entries (tensor_count) were read whole; the rows, types and totals"
                + " here cover those only");
    assertThat(partial.limitations().subList(1, partial.limitations().size()))
        .noneMatch(l -> l.code().equals("partial_header"));
    assertThat(partial.totals().tensorCount()).isEqualTo(tensors.size());

    // Alignment: explicit once its pair is read; the default only once the metadata ended.
    boolean alignmentRead = rows.stream().anyMatch(r -> r.key().equals("general.alignment"));
    if (explicit && alignmentRead) {
      assertThat(facts.alignment()).as(where).isEqualTo(64L);
      assertThat(facts.alignmentSource()).isEqualTo("metadata");
    } else if (!tensors.isEmpty()) {
      assertThat(facts.alignment()).as(where).isEqualTo(32L);
      assertThat(facts.alignmentSource()).isEqualTo("default");
    } else if (rows.size() < complete.metadata().size()) {
      assertThat(facts.alignment()).as(where).isNull();
      assertThat(facts.alignmentSource()).isNull();
    }

    // The record is one an importer takes: its id, its checks, its JSON.
    assertThat(partial.evidenceId()).isEqualTo(EvidenceIds.compute(partial));
    RecordChecks.check(partial, "", Limits.defaults(), true);
    EvidenceRecord back =
        EvidenceImport.standard()
            .read(EvidenceJson.bundleBytes(List.of(partial)))
            .records()
            .get(0)
            .record();
    assertThat(back).isEqualTo(partial);
  }

  /** The record checks hold what is unknown in a partial header unknown, and only there. */
  @Test
  void theRecordChecksRefuseAPartialHeaderThatClaimsWhatItCannotKnow() throws Exception {
    Path p = Files.write(dir.resolve("c.gguf"), gguf(true));
    EvidenceRecord complete = ModelInspector.standard().inspect(p, HashMode.HEADER);
    long inTensors = complete.artifact().headerLength() - 10;
    EvidenceRecord partial = CancelAt.inspect(p, inTensors, HashMode.HEADER).failure().partialEvidence();
    assertThat(partial.tensors()).isNotEmpty();
    RecordChecks.check(partial, "", Limits.defaults(), false);

    dev.rea.core.evidence.Artifact a = partial.artifact();
    dev.rea.core.evidence.Artifact withDigest =
        new dev.rea.core.evidence.Artifact(
            a.path(), a.format(), a.fileSize(), a.headerLength(), "0".repeat(64), null,
            a.bytesRead(), a.readScope(), a.identity());
    refused(with(partial, withDigest, partial.formatFacts(), partial.coverage(), partial.tensors()),
        "artifact.header_sha256");
    FormatFacts.Gguf f = (FormatFacts.Gguf) partial.formatFacts();
    // A data offset, with every file offset placed after it: the partial header cannot know it.
    List<TensorRow> allPlaced = new java.util.ArrayList<>();
    for (TensorRow r : partial.tensors()) {
      allPlaced.add(new TensorRow(r.index(), r.name(), r.type(), r.typeId(), r.shape(),
          r.parameterCount(), r.offset(), 512L + r.offset(), r.byteLength(), r.storageValidation()));
    }
    refused(
        with(partial, a, new FormatFacts.Gguf(f.version(), f.byteOrder(), f.alignment(), f.alignmentSource(), 512L),
            partial.coverage(), allPlaced),
        "format_facts.tensor_data_offset");
    Coverage c = partial.coverage();
    refused(
        with(partial, a, f, new Coverage(Coverage.COMPLETE, c.storageSizes(), c.ranges(), c.digest(), c.finalIdentity()),
            partial.tensors()),
        "artifact.header_sha256");
    TensorRow t = partial.tensors().get(0);
    List<TensorRow> placed = new java.util.ArrayList<>(partial.tensors());
    placed.set(0, new TensorRow(t.index(), t.name(), t.type(), t.typeId(), t.shape(), t.parameterCount(),
        t.offset(), 512L, t.byteLength(), t.storageValidation()));
    refused(with(partial, a, f, c, placed), "tensors[0].file_offset");
    refused(
        with(partial, a, f, new Coverage(c.header(), Coverage.COMPLETE, c.ranges(), c.digest(), c.finalIdentity()),
            partial.tensors()),
        "coverage.storage_sizes");
  }

  private static EvidenceRecord with(
      EvidenceRecord r,
      dev.rea.core.evidence.Artifact artifact,
      FormatFacts facts,
      Coverage coverage,
      List<TensorRow> tensors) {
    return new EvidenceRecord(
        r.schema(), null, r.operation(), r.status(), r.observedAt(), r.request(), r.subject(),
        artifact, facts, r.metadata(), tensors, r.types(), r.totals(), coverage, r.limitations(),
        r.warnings(), null);
  }

  private static void refused(EvidenceRecord r, String field) {
    ReaException e =
        catchThrowableOfType(
            ReaException.class, () -> RecordChecks.check(r, "", Limits.defaults(), false));
    assertThat(e).as(field).isNotNull();
    assertThat(e.field()).isEqualTo(field);
  }
}
