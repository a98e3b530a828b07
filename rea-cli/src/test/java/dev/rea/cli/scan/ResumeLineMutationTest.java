package dev.rea.cli.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FileIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Property: any mutation of an earlier scan output (bytes flipped, overwritten with JSON
 * punctuation or a status word, deleted, inserted; a line duplicated, dropped or moved; the file
 * cut) either is refused whole as {@code bad_argument} naming a line of it, or is loaded so that
 * every line {@code --resume} keeps is backed by a whole line of the mutant that says so: read
 * here with Jackson, not with REA's reader, it is the last line of that path, with the identity
 * (and for a set, the member identities) the walk observed, a keepable status (complete or
 * rejected) and the warning and limitation flags REA reports.
 * QuickTheories over seeds: a failure names a reproducible seed.
 */
class ResumeLineMutationTest {
  @TempDir static Path dir;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[][] WORDS = {
    "\"complete\"".getBytes(StandardCharsets.US_ASCII),
    "\"rejected\"".getBytes(StandardCharsets.US_ASCII),
    "\"failed\"".getBytes(StandardCharsets.US_ASCII),
    "null".getBytes(StandardCharsets.US_ASCII),
    "\"4\"".getBytes(StandardCharsets.US_ASCII),
  };
  private static final byte[] PUNCTUATION =
      "{}[]\":,\\\n 0".getBytes(StandardCharsets.US_ASCII);

  /** The units of the original output: path and identity, in line order. */
  private static final List<String> PATHS = new ArrayList<>();
  private static final List<FileIdentity> IDS = new ArrayList<>();

  private static byte[] original() {
    StringBuilder out = new StringBuilder();
    UnitStatus[] statuses = {
      UnitStatus.COMPLETE, UnitStatus.REJECTED, UnitStatus.FAILED, UnitStatus.COMPLETE,
      UnitStatus.SKIPPED
    };
    PATHS.clear();
    IDS.clear();
    for (int i = 0; i < statuses.length; i++) {
      String path = "/m/" + (char) ('a' + i) + ".gguf";
      FileIdentity id =
          FileIdentity.observed(2049L, 100L + i, 10L * i, Instant.parse("2025-01-02T03:04:05.5Z"));
      PATHS.add(path);
      IDS.add(id);
      out.append(ResumeIndexTest.line(path, statuses[i], id, i == 0));
    }
    out.append(new String(setLine(), StandardCharsets.UTF_8));
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A complete set's line: an index and two shards, each with its identity. */
  private static final ScanUnit SET = ScanUnit.set(Path.of("/m/s/model.safetensors.index.json"),
      List.of("model.safetensors.index.json", "model-00001-of-00002.safetensors",
              "model-00002-of-00002.safetensors").stream()
          .map(n -> new ListedFile(Path.of("/m/s", n), FileIdentity.observed(
              2049L, 200L + n.length(), 10L * n.length(), Instant.parse("2025-01-02T03:04:05Z"))))
          .toList(),
      true);

  private static byte[] setLine() {
    String path = SET.path().toString();
    byte[] summary =
        ("{\"kind\":\"model-set-summary\",\"parent_evidence_id\":\"" + ResumeIndexTest.EVIDENCE_ID
                + "\",\"status\":\"complete\",\"artifact\":{\"path\":\"" + path
                + "\",\"file_size\":\"5\",\"sha256\":null},\"warnings\":[],"
                + "\"limitation_count\":1}")
            .getBytes(StandardCharsets.UTF_8);
    return ScanLine.render(ScanUnit.Kind.SET, path, UnitStatus.COMPLETE, null, SET.identity(),
        SET.members(), Map.of(), ResumeIndexTest.EVIDENCE_ID, summary, null);
  }

  @Test
  void aKeptLineIsAlwaysOneTheMutantSaysWhole() throws Exception {
    byte[] original = original();
    Path file = dir.resolve("out.jsonl");
    // The identity objects as the original lines spell them, to compare a mutant's with.
    List<JsonNode> identities = new ArrayList<>();
    for (String l : new String(original, StandardCharsets.UTF_8).split("\n")) {
      identities.add(JSON.readTree(l).get("identity"));
    }
    int[] outcomes = new int[4];
    JsonNode setLineNode = JSON.readTree(setLine());
    qt().withFixedSeed(0x5CA7L).withExamples(3000).forAll(longs().all()).checkAssert(seed -> {
      byte[] m = mutate(original, new Random(seed));
      try {
        Files.write(file, m);
        ResumeIndex index;
        try {
          index = ResumeIndex.load(file, false);
        } catch (ReaException refused) {
          assertThat(refused.constraint()).isEqualTo(Constraint.BAD_ARGUMENT);
          assertThat(refused.getMessage()).containsPattern("line [0-9]+ of ");
          outcomes[0]++;
          return;
        }
        List<JsonNode> whole = wholeLines(m, index.validLength());
        ResumeIndex.Kept keptSet = index.keep(SET);
        if (keptSet != null) {
          outcomes[3]++;
          JsonNode last = lastOf(whole, SET.path().toString());
          assertThat(last).as("a line of the set backs the kept one").isNotNull();
          assertThat(last.get("kind").asString()).isEqualTo("set");
          assertThat(last.get("identity")).isEqualTo(setLineNode.get("identity"));
          assertThat(last.get("member_identities"))
              .isEqualTo(setLineNode.get("member_identities"));
          assertThat(last.get("status").asString()).isEqualTo(keptSet.status().wire());
          assertThat(keptSet.limitations())
              .isEqualTo(last.get("summary").get("limitation_count").asLong() != 0);
        }
        for (int u = 0; u < PATHS.size(); u++) {
          ResumeIndex.Kept kept = index.keep(PATHS.get(u), IDS.get(u));
          if (kept == null) {
            continue;
          }
          outcomes[2]++;
          JsonNode last = lastOf(whole, PATHS.get(u));
          assertThat(last).as("a line of %s backs the kept one", PATHS.get(u)).isNotNull();
          assertThat(last.get("identity")).isEqualTo(identities.get(u));
          assertThat(last.get("status").asString()).isEqualTo(kept.status().wire())
              .isIn("complete", "rejected");
          if (kept.status() == UnitStatus.COMPLETE) {
            JsonNode warnings = last.get("summary").get("warnings");
            assertThat(warnings).as("the kept line's summary.warnings").isNotNull();
            assertThat(kept.warnings()).isEqualTo(!warnings.isEmpty());
          }
        }
        outcomes[1]++;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    // Both refusals and loaded mutants with kept lines were seen.
    assertThat(outcomes[0]).as("refused").isPositive();
    assertThat(outcomes[1]).as("loaded").isPositive();
    assertThat(outcomes[2]).as("file lines kept").isPositive();
    assertThat(outcomes[3]).as("set lines kept").isPositive();
  }

  /** @return the last of {@code lines} whose path is {@code path}, or null */
  private static JsonNode lastOf(List<JsonNode> lines, String path) {
    JsonNode last = null;
    for (JsonNode l : lines) {
      if (l != null && l.path("path").isString() && l.get("path").asString().equals(path)) {
        last = l;
      }
    }
    return last;
  }

  /** @return the mutant's whole lines within {@code validLength}, null where not JSON */
  private static List<JsonNode> wholeLines(byte[] m, long validLength) {
    List<JsonNode> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < validLength; i++) {
      if (m[i] == '\n') {
        String l = new String(m, start, i - start, StandardCharsets.UTF_8);
        JsonNode n;
        try {
          n = JSON.readTree(l);
        } catch (RuntimeException notJson) {
          n = null;
        }
        out.add(n);
        start = i + 1;
      }
    }
    return out;
  }

  private static byte[] mutate(byte[] in, Random r) {
    byte[] b = in;
    for (int k = 0, n = 1 + r.nextInt(3); k < n && b.length > 0; k++) {
      int at = r.nextInt(b.length);
      switch (r.nextInt(7)) {
        case 0 -> {
          b = b.clone();
          b[at] ^= (byte) (1 << r.nextInt(8));
        }
        case 1 -> {
          b = b.clone();
          b[at] = PUNCTUATION[r.nextInt(PUNCTUATION.length)];
        }
        case 2 -> {
          byte[] w = WORDS[r.nextInt(WORDS.length)];
          b = splice(b, at, Math.min(w.length, b.length - at), w);
        }
        case 3 -> b = splice(b, at, 1 + r.nextInt(Math.min(8, b.length - at)), new byte[0]);
        case 4 -> b = splice(b, at, 0, new byte[] {PUNCTUATION[r.nextInt(PUNCTUATION.length)]});
        case 5 -> b = Arrays.copyOf(b, at);
        default -> b = shuffleLines(b, r);
      }
    }
    return b;
  }

  private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
    byte[] out = new byte[b.length - remove + insert.length];
    System.arraycopy(b, 0, out, 0, at);
    System.arraycopy(insert, 0, out, at, insert.length);
    System.arraycopy(b, at + remove, out, at + insert.length, b.length - at - remove);
    return out;
  }

  /** Duplicates, drops or moves one line. */
  private static byte[] shuffleLines(byte[] b, Random r) {
    List<String> lines =
        new ArrayList<>(Arrays.asList(new String(b, StandardCharsets.UTF_8).split("\n", -1)));
    int i = r.nextInt(lines.size());
    switch (r.nextInt(3)) {
      case 0 -> lines.add(r.nextInt(lines.size() + 1), lines.get(i));
      case 1 -> lines.remove(i);
      default -> lines.add(r.nextInt(lines.size()), lines.remove(i));
    }
    return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
  }
}
