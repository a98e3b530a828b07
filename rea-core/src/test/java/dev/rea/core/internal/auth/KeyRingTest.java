package dev.rea.core.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.evidence.EvidenceIds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
  void openingForReadingWritesNothingAndSignsOnlyWithAnExistingKeyPair() throws Exception {
    Path home = tmp.resolve("reader").resolve("rea");
    KeyRing empty = KeyRing.openForReading(home);
    assertThat(home).doesNotExist();
    assertThat(empty.canSign()).isFalse();
    assertThat(empty.trustedKeyIds()).isEmpty();
    assertThatThrownBy(() -> empty.sign(new byte[] {1})).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(empty::keyId).isInstanceOf(IllegalStateException.class);

    // A colleague's public key in trusted/ is trusted, still without a key pair of the reader's.
    KeyRing colleague = KeyRing.open(tmp.resolve("colleague"));
    Files.createDirectories(home.resolve(KeyRing.TRUSTED_DIR));
    Files.writeString(home.resolve(KeyRing.TRUSTED_DIR).resolve("c.pem"),
        KeyRing.publicKeyPem(colleague.publicKey()));
    KeyRing trusting = KeyRing.openForReading(home);
    assertThat(trusting.canSign()).isFalse();
    assertThat(trusting.trustedKeyIds()).containsExactly(colleague.keyId());
    try (var files = Files.list(home)) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactly(KeyRing.TRUSTED_DIR);
    }

    // With a key pair (made by open), reading finds it, trusts it first and can sign.
    KeyRing own = KeyRing.open(home);
    KeyRing reading = KeyRing.openForReading(home);
    assertThat(reading.canSign()).isTrue();
    assertThat(reading.created()).isFalse();
    assertThat(reading.keyId()).isEqualTo(own.keyId());
    assertThat(reading.trustedKeyIds()).containsExactly(own.keyId(), colleague.keyId());
    byte[] m = "m".getBytes(StandardCharsets.UTF_8);
    assertThat(KeyRing.verify(own.publicKey(), m, reading.sign(m))).isTrue();
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
    Files.setPosixFilePermissions(tmp.resolve("home"), PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(trusted, PosixFilePermissions.fromString("rwxr-xr-x"));
    KeyRing home = KeyRing.open(tmp.resolve("home"));
    assertThat(home.trustedKeyIds()).containsExactly(home.keyId(), b.keyId(), c.keyId());
    assertThat(home.problems()).hasSize(1);
    assertThat(home.problems().get(0)).startsWith("junk.pem: ");
  }

  /**
   * A file of several PEM blocks keeps its usable keys when another block is not one: the bad
   * block is listed as a problem, the good key is trusted (a trial had a colleague's key refused
   * because a malformed block followed it in the same file).
   */
  @Test
  void aGoodKeyBesideABadBlockInOneFileIsTrusted() throws Exception {
    KeyRing b = KeyRing.open(tmp.resolve("b"));
    Path trusted = Files.createDirectories(tmp.resolve("home").resolve(KeyRing.TRUSTED_DIR));
    Files.writeString(trusted.resolve("team.pem"), KeyRing.publicKeyPem(b.publicKey())
        + "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n");
    Files.writeString(trusted.resolve("bad.pem"),
        "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n");
    Files.setPosixFilePermissions(tmp.resolve("home"), PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(trusted, PosixFilePermissions.fromString("rwxr-xr-x"));
    KeyRing home = KeyRing.open(tmp.resolve("home"));
    assertThat(home.trustedKeyIds()).containsExactly(home.keyId(), b.keyId());
    assertThat(home.problems()).containsExactly(
        "bad.pem: not an Ed25519 SubjectPublicKeyInfo",
        "team.pem: PUBLIC KEY block 2 of 2 skipped: not an Ed25519 SubjectPublicKeyInfo");

    // A block that is not even well formed PEM, before the good key: listed, key trusted.
    Files.writeString(trusted.resolve("team.pem"),
        "-----BEGIN PUBLIC KEY-----\n!!!notbase64!!!\n-----END PUBLIC KEY-----\n"
            + KeyRing.publicKeyPem(b.publicKey()));
    Files.delete(trusted.resolve("bad.pem"));
    KeyRing again = KeyRing.open(tmp.resolve("home"));
    assertThat(again.trustedKeyIds()).containsExactly(again.keyId(), b.keyId());
    assertThat(again.problems()).containsExactly(
        "team.pem: 1 PEM block not well formed (a BEGIN line without its END line, or text that"
            + " is not base64) skipped");
  }

  @Test
  void aHomeThatCannotBeCreatedSaysHowToChooseAnother() throws Exception {
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    Path home = file.resolve("rea");
    assertThatThrownBy(() -> KeyRing.open(home))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
          assertThat(e.getMessage())
              .contains("the REA home " + home + " could not be used")
              .contains("set REA_HOME to a writable directory");
        });
  }

  @Test
  void malformedKeyFileIsAHostFailureNamingThePath() throws Exception {
    Path home = Files.createDirectories(tmp.resolve("bad"));
    Files.writeString(home.resolve(KeyRing.KEY_FILE), "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    assertThatThrownBy(() -> KeyRing.open(home))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
          assertThat(e.code()).isEqualTo(ErrorCode.EXECUTION_FAILURE);
          assertThat(e.path()).isEqualTo(home.resolve(KeyRing.KEY_FILE).toString());
          assertThat(e.getMessage()).contains(KeyRing.KEY_FILE).contains("malformed");
          assertThat(e.diagnostics().get("reason").toString()).startsWith("it is malformed: ");
        });
  }

  /** Opens {@code home} expecting an io_error about its key file with this reason. */
  private static void assertKeyFileRefused(Path home, String reason) {
    Path key = home.resolve(KeyRing.KEY_FILE);
    assertThatThrownBy(() -> KeyRing.open(home))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
          assertThat(e.code()).isEqualTo(ErrorCode.EXECUTION_FAILURE);
          assertThat(e.path()).isEqualTo(key.toString());
          assertThat(e.diagnostics())
              .containsEntry("path", key.toString())
              .containsEntry("reason", reason);
          assertThat(e.getMessage())
              .isEqualTo("the signing key file " + key + " cannot be used: " + reason);
        });
  }

  /** Makes a FIFO with mkfifo(1), or skips the test (saying so) where there is none. */
  private static void mkfifo(Path p) throws Exception {
    boolean made;
    try {
      made = new ProcessBuilder("mkfifo", p.toString()).start().waitFor() == 0;
    } catch (java.io.IOException e) {
      made = false;
    }
    if (!made) {
      System.out.println("skipped: mkfifo is not available here");
    }
    assumeTrue(made, "mkfifo is not available");
  }

  @Test
  @Timeout(20)
  void keyFileLinkedToDevZeroIsRefusedUnread() throws Exception {
    Path zero = Path.of("/dev/zero");
    assumeTrue(Files.exists(zero), "no /dev/zero");
    Path home = Files.createDirectories(tmp.resolve("zero"));
    Files.createSymbolicLink(home.resolve(KeyRing.KEY_FILE), zero);
    assertKeyFileRefused(home, "it is not a regular file");
  }

  @Test
  @Timeout(20)
  void keyFileThatIsAFifoIsRefusedWithoutBlocking() throws Exception {
    Path home = Files.createDirectories(tmp.resolve("fifo"));
    mkfifo(home.resolve(KeyRing.KEY_FILE));
    assertKeyFileRefused(home, "it is not a regular file");
  }

  @Test
  void keyFileLargerThan64KiBIsRefused() throws Exception {
    Path home = tmp.resolve("big");
    KeyRing.open(home);
    Path key = home.resolve(KeyRing.KEY_FILE);
    // A valid key pair followed by blank lines: still refused by its size.
    String text = Files.readString(key);
    Files.writeString(key, text + "\n".repeat(64 * 1024 + 1 - text.length()));
    assertThat(Files.size(key)).isEqualTo(64 * 1024 + 1);
    assertKeyFileRefused(home, "it is larger than 65536 bytes");
    Files.writeString(key, text + "\n".repeat(64 * 1024 - text.length()));
    assertThat(KeyRing.open(home).created()).isFalse();
  }

  @Test
  void ownKeyFileWithASmallOrderPublicKeyIsRefused() throws Exception {
    Path home = tmp.resolve("identity");
    KeyRing.open(home);
    Path key = home.resolve(KeyRing.KEY_FILE);
    String text = Files.readString(key);
    String priv = text.substring(0, text.indexOf("-----BEGIN PUBLIC KEY-----"));
    Files.writeString(key, priv + pem(IDENTITY_SPKI));
    assertKeyFileRefused(home, "it holds no usable Ed25519 public key: its point has small order"
        + " (y = 1, the identity point (order 1)): a signature of it proves nothing");
  }

  /** SPKI of the identity point: the Ed25519 prefix, then 01 and 31 zero bytes. */
  static final byte[] IDENTITY_SPKI =
      HexFormat.of().parseHex("302a300506032b6570032100" + "01" + "00".repeat(31));

  static String pem(byte[] spki) {
    return "-----BEGIN PUBLIC KEY-----\n" + Base64.getEncoder().encodeToString(spki)
        + "\n-----END PUBLIC KEY-----\n";
  }

  @Test
  void smallOrderAndNonCanonicalTrustedKeysAreProblems() throws Exception {
    KeyRing good = KeyRing.open(tmp.resolve("good"));
    Path home = tmp.resolve("home");
    KeyRing.open(home);
    Path trusted = Files.createDirectories(home.resolve(KeyRing.TRUSTED_DIR));
    String pre = "302a300506032b6570032100";
    Map<String, String> points = new java.util.LinkedHashMap<>();
    points.put("a-identity.pem", "01" + "00".repeat(31));
    points.put("b-identity-odd.pem", "01" + "00".repeat(30) + "80");
    points.put("c-order2.pem", "ec" + "ff".repeat(30) + "7f");
    points.put("d-order4.pem", "00".repeat(32));
    points.put("e-order8.pem", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05");
    points.put("f-order8.pem", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a");
    points.put("g-order8-odd.pem",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa");
    points.put("h-p.pem", "ed" + "ff".repeat(30) + "7f");
    points.put("i-p-plus-1.pem", "ee" + "ff".repeat(30) + "7f");
    for (var e : points.entrySet()) {
      Files.writeString(trusted.resolve(e.getKey()), pem(HexFormat.of().parseHex(pre + e.getValue())));
    }
    // One usable key beside an unusable one in the same file: the unusable block is skipped and
    // listed; the usable key is trusted (the same key as k-good's here).
    Files.writeString(trusted.resolve("j-mixed.pem"),
        KeyRing.publicKeyPem(good.publicKey()) + pem(IDENTITY_SPKI));
    Files.writeString(trusted.resolve("k-good.pem"), KeyRing.publicKeyPem(good.publicKey()));

    KeyRing ring = KeyRing.open(home);
    assertThat(ring.trustedKeyIds()).containsExactly(ring.keyId(), good.keyId());
    assertThat(ring.problems()).hasSize(points.size() + 1);
    String unusable = ": holds no usable Ed25519 public key: ";
    assertThat(ring.problems()).containsExactly(
        "a-identity.pem" + unusable + "its point has small order (y = 1, the identity point"
            + " (order 1)): a signature of it proves nothing",
        "b-identity-odd.pem" + unusable + "its point has small order (y = 1, the identity point"
            + " (order 1)): a signature of it proves nothing",
        "c-order2.pem" + unusable + "its point has small order (y = p - 1, the point of order 2):"
            + " a signature of it proves nothing",
        "d-order4.pem" + unusable + "its point has small order (y = 0, a point of order 4): a"
            + " signature of it proves nothing",
        "e-order8.pem" + unusable + "its point has small order (y = "
            + Ed25519PublicKeys.littleEndian(HexFormat.of().parseHex(points.get("e-order8.pem")))
            + ", a point of order 8): a signature of it proves nothing",
        "f-order8.pem" + unusable + "its point has small order (y = "
            + Ed25519PublicKeys.littleEndian(HexFormat.of().parseHex(points.get("f-order8.pem")))
            + ", a point of order 8): a signature of it proves nothing",
        "g-order8-odd.pem" + unusable + "its point has small order (y = "
            + Ed25519PublicKeys.littleEndian(HexFormat.of().parseHex(points.get("f-order8.pem")))
            + ", a point of order 8): a signature of it proves nothing",
        "h-p.pem" + unusable
            + "its encoded y-coordinate is not below p = 2^255 - 19 (a non-canonical encoding)",
        "i-p-plus-1.pem" + unusable
            + "its encoded y-coordinate is not below p = 2^255 - 19 (a non-canonical encoding)",
        "j-mixed.pem: PUBLIC KEY block 2 of 2 skipped: holds no usable Ed25519 public key: its"
            + " point has small order (y = 1, the identity point (order 1)): a signature of it"
            + " proves nothing");
  }

  @Test
  void verifyRefusesASmallOrderKeyThatTheJdkAccepts() throws Exception {
    PublicKey identity = KeyFactory.getInstance("Ed25519")
        .generatePublic(new X509EncodedKeySpec(IDENTITY_SPKI));
    byte[] msg = "any message at all".getBytes(StandardCharsets.US_ASCII);
    // R = identity (01 00..00), S = 0.
    byte[] sig = HexFormat.of().parseHex("01" + "00".repeat(63));
    Signature jdk = Signature.getInstance("Ed25519");
    jdk.initVerify(identity);
    jdk.update(msg);
    System.out.println("the JDK's own Ed25519 accepts R = identity, S = 0 under the identity key: "
        + jdk.verify(sig));
    assertThat(KeyRing.verify(identity, msg, sig)).isFalse();
  }

  @Test
  @Timeout(20)
  void trustedEntriesThatAreNotSmallRegularFilesAreProblems() throws Exception {
    KeyRing b = KeyRing.open(tmp.resolve("b"));
    Path home = tmp.resolve("home");
    KeyRing.open(home);
    Path trusted = Files.createDirectories(home.resolve(KeyRing.TRUSTED_DIR));
    Files.writeString(trusted.resolve("b.pem"), KeyRing.publicKeyPem(b.publicKey()));
    Files.writeString(trusted.resolve("big.pem"),
        KeyRing.publicKeyPem(b.publicKey()) + " ".repeat(KeyRing.MAX_TRUSTED_FILE_BYTES));
    Files.createSymbolicLink(trusted.resolve("dangling.pem"), trusted.resolve("nothing-here"));
    Files.write(trusted.resolve("latin1.pem"), new byte[] {(byte) 0xE9});
    boolean devZero = Files.exists(Path.of("/dev/zero"));
    if (devZero) {
      Files.createSymbolicLink(trusted.resolve("zero.pem"), Path.of("/dev/zero"));
    }
    mkfifo(trusted.resolve("fifo.pem"));
    KeyRing ring = KeyRing.open(home);
    assertThat(ring.trustedKeyIds()).containsExactly(ring.keyId(), b.keyId());
    List<String> want = new java.util.ArrayList<>(List.of(
        "big.pem: larger than 65536 bytes",
        "dangling.pem: a symbolic link to nothing",
        "fifo.pem: not a regular file",
        "latin1.pem: not ASCII text"));
    if (devZero) {
      want.add("zero.pem: not a regular file");
    }
    assertThat(ring.problems()).containsExactlyElementsOf(want);
  }

  @Test
  void widePermissionsOfTheHomeTrustedDirectoryAndKeyFileAreReported() throws Exception {
    Path home = tmp.resolve("shared");
    KeyRing first = KeyRing.open(home);
    assumeTrue(home.getFileSystem().supportedFileAttributeViews().contains("posix"));
    assertThat(first.problems()).isEmpty();
    Path trusted = Files.createDirectories(home.resolve(KeyRing.TRUSTED_DIR));
    Path key = home.resolve(KeyRing.KEY_FILE);
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxr-x"));
    Files.setPosixFilePermissions(trusted, PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
    KeyRing ring = KeyRing.open(home);
    // Warnings only: the ring still opens with the same key.
    assertThat(ring.keyId()).isEqualTo(first.keyId());
    assertThat(ring.problems()).containsExactly(
        home + ": the REA home is writable by its group (mode rwxrwxr-x); whoever can write"
            + " there can replace the signing key and add trusted keys; run chmod go-w " + home,
        key + ": the signing key file is readable by its group and others (mode rw-r--r--);"
            + " the private key must be its owner's only; run chmod 600 " + key,
        trusted + ": the trusted-key directory is writable by its group and others (mode"
            + " rwxrwxrwx); whoever can write there can add trusted keys; run chmod go-w "
            + trusted);
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(trusted, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    assertThat(KeyRing.open(home).problems()).isEmpty();
  }
}
