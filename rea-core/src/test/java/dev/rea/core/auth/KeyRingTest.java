package dev.rea.core.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceIds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyRingTest {
  @TempDir Path tmp;

  @Test
  void homeResolutionOrder() {
    Path user = Path.of("/home/u");
    assertThat(ReaHome.resolve(Map.of("REA_HOME", "/srv/rea", "XDG_CONFIG_HOME", "/x"), user))
        .isEqualTo(Path.of("/srv/rea"));
    assertThat(ReaHome.resolve(Map.of("REA_HOME", "", "XDG_CONFIG_HOME", "/x"), user))
        .isEqualTo(Path.of("/x/rea"));
    assertThat(ReaHome.resolve(Map.of("XDG_CONFIG_HOME", "relative/dir"), user))
        .isEqualTo(Path.of("/home/u/.config/rea"));
    assertThat(ReaHome.resolve(Map.of(), user)).isEqualTo(Path.of("/home/u/.config/rea"));
    assertThat(ReaHome.resolve(Map.of("REA_HOME", "rel"), user))
        .isEqualTo(Path.of("rel").toAbsolutePath());
    // "~" follows $HOME when it is set and absolute, as a shell's would.
    assertThat(ReaHome.resolve(Map.of("HOME", "/tmp/other"), user))
        .isEqualTo(Path.of("/tmp/other/.config/rea"));
    assertThat(ReaHome.resolve(Map.of("HOME", "not/absolute"), user))
        .isEqualTo(Path.of("/home/u/.config/rea"));
    assertThat(ReaHome.resolve(Map.of("HOME", "/tmp/other", "XDG_CONFIG_HOME", "/x"), user))
        .isEqualTo(Path.of("/x/rea"));
  }

  @Test
  void keyPairIsCreatedOnFirstUseOwnerOnlyAndReusedAfterwards() throws Exception {
    Path home = tmp.resolve("a").resolve("rea");
    KeyRing ring = KeyRing.open(home);
    assertThat(ring.created()).isTrue();
    assertThat(KeyRing.open(home).created()).isFalse();
    Path key = home.resolve(KeyRing.KEY_FILE);
    assertThat(key).isRegularFile();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home))).isEqualTo("rwx------");
    String text = Files.readString(key);
    assertThat(text).startsWith("-----BEGIN PRIVATE KEY-----\n").contains("-----BEGIN PUBLIC KEY-----\n");
    try (var s = Files.list(home)) {
      assertThat(s.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder(KeyRing.KEY_FILE, KeyRing.PUBLIC_KEY_FILE);
    }
    byte[] spki = ring.publicKey().getEncoded();
    assertThat(spki).hasSize(44);
    assertThat(ring.keyId()).isEqualTo("sha256:" + HexFormat.of().formatHex(EvidenceIds.sha256().digest(spki)));
    assertThat(Files.readString(home.resolve(KeyRing.PUBLIC_KEY_FILE)))
        .isEqualTo(KeyRing.publicKeyPem(ring.publicKey()));

    KeyRing again = KeyRing.open(home);
    assertThat(again.keyId()).isEqualTo(ring.keyId());
    byte[] msg = "hello".getBytes(StandardCharsets.US_ASCII);
    byte[] sig = again.sign(msg);
    assertThat(sig).hasSize(64);
    assertThat(KeyRing.verify(ring.publicKey(), msg, sig)).isTrue();
    assertThat(KeyRing.verify(ring.publicKey(), "hellp".getBytes(StandardCharsets.US_ASCII), sig)).isFalse();
  }

  @Test
  void concurrentFirstUseAgreesOnOneKey() throws Exception {
    Path home = tmp.resolve("race");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      Callable<String> open = () -> KeyRing.open(home).keyId();
      List<Future<String>> ids = pool.invokeAll(List.of(open, open, open, open, open, open));
      String first = ids.get(0).get();
      for (Future<String> f : ids) {
        assertThat(f.get()).isEqualTo(first);
      }
    } finally {
      pool.shutdownNow();
    }
    try (var s = Files.list(home)) {
      assertThat(s.filter(p -> p.getFileName().toString().endsWith(".tmp")).count()).isZero();
    }
  }

  @Test
  void trustedKeysAcceptPemAndBareBase64AndSkipJunk() throws Exception {
    KeyRing a = KeyRing.open(tmp.resolve("a"));
    KeyRing b = KeyRing.open(tmp.resolve("b"));
    KeyRing c = KeyRing.open(tmp.resolve("c"));
    Path trusted = Files.createDirectories(tmp.resolve("home").resolve(KeyRing.TRUSTED_DIR));
    Files.writeString(trusted.resolve("b.pem"), KeyRing.publicKeyPem(b.publicKey()));
    Files.writeString(trusted.resolve("c.txt"),
        Base64.getEncoder().encodeToString(c.publicKey().getEncoded()) + "\n");
    Files.writeString(trusted.resolve("junk.pem"), "not a key");
    Files.writeString(trusted.resolve(".hidden"), KeyRing.publicKeyPem(a.publicKey()));
    Files.createDirectory(trusted.resolve("subdir"));
    KeyRing home = KeyRing.open(tmp.resolve("home"));
    assertThat(home.trustedKeyIds()).containsExactly(home.keyId(), b.keyId(), c.keyId());
    assertThat(home.problems()).hasSize(1);
    assertThat(home.problems().get(0)).startsWith("junk.pem: ");
  }

  @Test
  void malformedKeyFileIsAHostFailureNamingThePath() throws Exception {
    Path home = Files.createDirectories(tmp.resolve("bad"));
    Files.writeString(home.resolve(KeyRing.KEY_FILE), "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    assertThatThrownBy(() -> KeyRing.open(home))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
          assertThat(e.path()).isEqualTo(home.toString());
          assertThat(e.getMessage()).contains(KeyRing.KEY_FILE).contains("malformed");
        });
  }
}
