package dev.rea.core.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.rea.core.Rea;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.testing.SetFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property: any mutation of one member of a valid GGUF split set (bytes as {@link
 * MutationPropertyTest#mutate} changes them; a {@code split.*} key given another value or type,
 * or removed; a tensor name another member declares; two members' contents swapped) yields a
 * complete set that satisfies gguf-split's rules, checked here from the member records alone, or
 * a typed failure naming a file of the set. Never an exception out of {@code inspectSet}.
 *
 * <p>The rules, as gguf-split (llama.cpp {@code examples/gguf-split/gguf-split.cpp}) writes a set
 * and {@code llama_model_loader} reads one: member {@code i} declares {@code split.no = i}, every
 * member {@code split.count} = the number of members and {@code split.tensors.count} = the tensors
 * of all members, tensor names are unique across members; and the set's totals are its members'
 * sums. QuickTheories over seeds: a failure names a reproducible seed.
 */
class GgufSplitMutationTest {
  private static final int MEMBERS = 3;
  @TempDir static Path dir;

  @Test
  void mutantsYieldASetThatKeepsTheSplitRulesOrATypedFailure() {
    Rea rea = Rea.builder().home(dir.resolve("home")).build();
    int[] outcomes = new int[2];
    qt().withFixedSeed(0x5B117L).withExamples(600).forAll(longs().all()).checkAssert(seed -> {
      Random r = new Random(seed);
      Path set = dir.resolve("s" + Long.toHexString(seed));
      List<Path> members = mutant(set, r);
      SetInspection result = rea.inspectSet(members.get(0), InspectOptions.defaults());
      if (result instanceof SetInspection.Complete c) {
        checkRules(c);
        outcomes[0]++;
      } else {
        outcomes[1]++;
        ReaException e = result.failure().orElseThrow();
        assertThat(e.constraint()).isNotNull();
        assertThat(e.getMessage()).isNotBlank();
        if (e.path() != null) {
          assertThat(Path.of(e.path())).startsWith(set);
        }
      }
      delete(set);
    });
    // Both sides of the property were exercised (a mutant can leave the set valid: a flipped
    // byte of tensor data, or a key set to the value it had).
    assertThat(outcomes[0]).as("complete sets").isPositive();
    assertThat(outcomes[1]).as("failed sets").isGreaterThan(outcomes[0]);
  }

  /** Writes a valid set to {@code set}, then changes one member. */
  private static List<Path> mutant(Path set, Random r) {
    int victim = 1 + r.nextInt(MEMBERS);
    int how = r.nextInt(4);
    List<Path> members;
    if (how == 1) {
      String key = List.of("split.no", "split.count", "split.tensors.count").get(r.nextInt(3));
      GgufBuilder.Value v = switch (r.nextInt(6)) {
        case 0 -> GgufBuilder.u16(r.nextInt(5));
        case 1 -> GgufBuilder.i32(r.nextInt(9) - 1);
        case 2 -> GgufBuilder.u16(65535);
        case 3 -> GgufBuilder.u64(r.nextInt(5));
        case 4 -> GgufBuilder.str("2");
        default -> null;
      };
      members = SetFixtures.ggufSplit(set, "m", MEMBERS, 2, 2, (no, kvs) -> {
        if (no == victim) {
          if (v == null) {
            kvs.remove(key);
          } else {
            kvs.put(key, v);
          }
        }
      }, (no, b) -> {});
    } else if (how == 2) {
      // The first member's first tensor, declared again by another member.
      members = SetFixtures.ggufSplit(set, "m", MEMBERS, 2, 2, (no, b) -> {
        if (no == victim && no > 1) {
          b.tensor("blk.0.weight", 0, 8, 2);
        }
      });
    } else {
      members = SetFixtures.ggufSplit(set, "m", MEMBERS, 2, 2);
      try {
        Path p = members.get(victim - 1);
        if (how == 0) {
          Files.write(p, MutationPropertyTest.mutate(Files.readAllBytes(p), r));
        } else {
          Path other = members.get(victim % MEMBERS);
          byte[] a = Files.readAllBytes(p);
          Files.write(p, Files.readAllBytes(other));
          Files.write(other, a);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return members;
  }

  private static void checkRules(SetInspection.Complete c) {
    List<EvidenceRecord> records = c.members();
    ModelSetRecord set = c.set();
    assertThat(records).hasSize(MEMBERS);
    assertThat(set.members()).hasSize(MEMBERS);
    long tensors = records.stream().mapToLong(m -> m.tensors().size()).sum();
    Set<String> names = new HashSet<>();
    BigInteger parameters = BigInteger.ZERO;
    for (int i = 0; i < MEMBERS; i++) {
      EvidenceRecord m = records.get(i);
      Map<String, MetadataValue> kv = new java.util.HashMap<>();
      for (MetadataRow row : m.metadata()) {
        kv.put(row.key(), row.value());
      }
      assertThat(integer(kv, "split.no")).as("member %d split.no", i).isEqualTo(i);
      assertThat(integer(kv, "split.count")).as("member %d split.count", i).isEqualTo(MEMBERS);
      assertThat(integer(kv, "split.tensors.count")).as("member %d split.tensors.count", i)
          .isEqualTo(tensors);
      for (TensorRow t : m.tensors()) {
        assertThat(names.add(t.name())).as("tensor %s in two members", t.name()).isTrue();
      }
      assertThat(set.members().get(i).tensorCount()).isEqualTo(m.tensors().size());
      parameters = parameters.add(m.totals().parameterCount());
    }
    assertThat((long) set.totals().tensorCount()).isEqualTo(tensors);
    assertThat(set.totals().parameterCount()).isEqualTo(parameters);
  }

  private static long integer(Map<String, MetadataValue> kv, String key) {
    MetadataValue v = kv.get(key);
    assertThat(v).as(key).isInstanceOf(MetadataValue.IntegerValue.class);
    return ((MetadataValue.IntegerValue) v).bits();
  }

  private static void delete(Path set) {
    try (var files = Files.list(set)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.delete(p);
      }
      Files.delete(set);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
