package dev.rea.core.internal.inspect;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.io.ByteArrayChannel;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.source.SeekableSource;
import dev.rea.core.source.SourceIdentity;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.time.Instant;

/**
 * Loads and initializes what every inspection's end needs, by inspecting a tiny safetensors file
 * held in memory and signing its record with a throw-away all-zero key that never leaves this
 * method: the readers, the record, its canonical form and SHA-256, the JSON writer and the
 * Ed25519 provider's field arithmetic. No file is read or written and nothing is printed.
 */
public final class WarmUp {
  private static final byte[] FILE = file();

  private WarmUp() {}

  /** @return true when every step ran (a 64-byte signature came out); false when one failed */
  public static boolean run() {
    try {
      ByteArrayChannel channel = new ByteArrayChannel(FILE);
      SeekableSource source =
          new SeekableSource() {
            @Override
            public String name() {
              return "/warm-up.safetensors";
            }

            @Override
            public SeekableByteChannel channel() {
              return channel;
            }

            @Override
            public SourceIdentity identity() {
              return SourceIdentity.of(FILE.length, Instant.EPOCH);
            }
          };
      EvidenceRecord record =
          ModelInspector.standard()
              .run(source, HashMode.HEADER, new ModelInspector.Listener() {}, Cancellation.none())
              .orThrow();
      EvidenceIds.Identity identity = EvidenceIds.identity(record);
      EvidenceJson.recordBytes(record, true);
      PrivateKey key =
          KeyFactory.getInstance("Ed25519")
              .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, new byte[32]));
      Signature signature = Signature.getInstance("Ed25519");
      signature.initSign(key);
      signature.update(identity.canonical());
      return signature.sign().length == 64;
    } catch (Exception | LinkageError e) {
      // Only a warm-up: whatever goes wrong is reported by the real work when it gets there.
      return false;
    }
  }

  private static byte[] file() {
    byte[] json =
        "{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}"
            .getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[8 + json.length + 4];
    long n = json.length;
    for (int i = 0; i < 8; i++) {
      out[i] = (byte) (n >>> (8 * i));
    }
    System.arraycopy(json, 0, out, 8, json.length);
    return out;
  }
}
