package dev.rea.core.internal.auth;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.io.AtomicFiles;
import dev.rea.core.internal.io.IoFailures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.SignatureException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The provider's Ed25519 key pair and the public keys trusted for reading Evidence (CONTRACT
 * section 5), kept in a REA home directory ({@link ReaHome}). Uses only the JDK's own {@code
 * Ed25519} implementation ({@code KeyPairGenerator}, {@code KeyFactory}, {@code Signature}; JEP
 * 339).
 *
 * <h2>Files</h2>
 *
 * <ul>
 *   <li>{@value #KEY_FILE}: the provider's key pair, two PEM blocks (RFC 7468): {@code PRIVATE
 *       KEY} (PKCS#8) then {@code PUBLIC KEY} (X.509 SubjectPublicKeyInfo). Created on first use
 *       with mode 0600 inside a home directory created with mode 0700. Creation is atomic: the
 *       content is written and synced to a temporary file in the same directory, then published
 *       with a hard link that fails if another process published first (whose key is then used),
 *       so a reader never sees a half-written key.
 *   <li>{@value #PUBLIC_KEY_FILE}: the provider's public key alone, one {@code PUBLIC KEY} PEM
 *       block, written next to it for copying into another home's {@code trusted/} directory.
 *   <li>{@value #TRUSTED_DIR}{@code /}: every non-hidden entry that is not a directory must be
 *       a regular file (after following links) of at most 64 KiB holding one or more Ed25519
 *       public keys, each either a {@code -----BEGIN PUBLIC KEY-----} PEM block or (when the file
 *       has no PEM block) the base64 of the DER SubjectPublicKeyInfo on its own. Entries that
 *       cannot be read as such (FIFOs, devices, links to nothing, larger files, text without a
 *       usable key) are skipped and listed in {@link #problems()}.
 * </ul>
 *
 * <p>Every key file is read the same bounded way: it must be a regular file after following
 * links (checked before it is opened, so a FIFO never blocks and a link to {@code /dev/zero} is
 * never read), and at most 64 KiB are read, by a bounded loop, whatever size it reports.
 *
 * <p>Public keys that the JDK accepts but no signature of which proves anything are refused as
 * holding "no usable Ed25519 public key": points of small order and non-canonical encodings
 * ({@link Ed25519PublicKeys}), both in {@code trusted/} (a problem) and as the provider's own key
 * (a failure of {@link #open}).
 *
 * <p>On POSIX file systems, {@link #problems()} also reports a home or {@code trusted/} directory
 * that its group or others may write (whoever can write there can replace the key pair or add a
 * trusted key) and a key pair file that they may read or write. These are warnings: the ring is
 * still opened.
 *
 * <p>A key's ID is {@code "sha256:" + hex(SHA-256(SubjectPublicKeyInfo DER))}. The provider's
 * own key is always trusted.
 *
 * <p>Immutable after {@link #open}; thread-safe.
 */
public final class KeyRing {
  /** File name of the provider's key pair inside the home directory. */
  public static final String KEY_FILE = "signing-key.pem";

  /** File name of the exported public key inside the home directory. */
  public static final String PUBLIC_KEY_FILE = "signing-key.pub.pem";

  /** Directory of trusted public keys inside the home directory. */
  public static final String TRUSTED_DIR = "trusted";

  /** Largest trusted key file read, in bytes. */
  public static final int MAX_TRUSTED_FILE_BYTES = 64 * 1024;

  /** Largest key file read, in bytes. */
  private static final int MAX_KEY_FILE_BYTES = 64 * 1024;

  private static final String ALGORITHM = "Ed25519";
  private static final Pattern PEM =
      Pattern.compile(
          "-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");

  private final Path home;
  private final @Nullable PrivateKey privateKey;
  private final @Nullable PublicKey publicKey;
  private final boolean created;
  private final @Nullable String keyId;
  private final Map<String, PublicKey> trusted;
  private final List<String> problems;

  private KeyRing(
      Path home,
      @Nullable PrivateKey privateKey,
      @Nullable PublicKey publicKey,
      Map<String, PublicKey> trusted,
      List<String> problems,
      boolean created) {
    this.home = home;
    this.created = created;
    this.privateKey = privateKey;
    this.publicKey = publicKey;
    this.keyId = publicKey == null ? null : keyIdOf(publicKey);
    Map<String, PublicKey> all = new LinkedHashMap<>();
    if (publicKey != null) {
      all.put(keyId, publicKey);
    }
    all.putAll(trusted);
    this.trusted = Collections.unmodifiableMap(all);
    this.problems = List.copyOf(problems);
  }

  /**
   * Opens the key ring in {@code home}, creating the home directory and the key pair on first
   * use, and reads the trusted keys.
   *
   * @param home the REA home directory ({@link ReaHome#resolve})
   * @return the key ring
   * @throws ReaException {@code execution_failure} / {@code io_error} when the directory or key
   *     cannot be created or read, or the key file ({@value #KEY_FILE}) is not a regular file, is
   *     larger than 64 KiB, is malformed, holds keys that do not form a pair or holds no usable
   *     Ed25519 public key (then the error's path is the key file; path and reason are in the
   *     diagnostics)
   */
  public static KeyRing open(Path home) throws ReaException {
    return open(home, true);
  }

  /**
   * Opens the key ring in {@code home} for verifying only, writing nothing: the provider's key
   * pair when it exists (never created here), and the trusted keys when {@code trusted/} exists.
   * A ring opened this way without a key pair trusts only {@code trusted/} and cannot sign
   * ({@link #canSign()}). For commands that only read Evidence, so that reading creates no keys.
   *
   * @param home the REA home directory ({@link ReaHome#resolve})
   * @throws ReaException {@code execution_failure} / {@code io_error} as {@link #open(Path)}, when an
   *     existing key file cannot be used or a directory cannot be read
   */
  public static KeyRing openForReading(Path home) throws ReaException {
    return open(home, false);
  }

  /**
   * Both ways of opening: with {@code write}, the home directory and the key pair are created
   * when missing and the public key is exported; without it, nothing is created or written.
   */
  private static KeyRing open(Path home, boolean write) throws ReaException {
    Objects.requireNonNull(home, "home");
    Path dir = home.toAbsolutePath().normalize();
    Path keyFile = dir.resolve(KEY_FILE);
    try {
      List<String> problems = new ArrayList<>();
      if (write) {
        createPrivateDirectory(dir);
      } else if (!Files.isDirectory(dir)) {
        return new KeyRing(dir, null, null, Map.of(), problems, false);
      }
      reportWidePermissions(dir, "the REA home", "replace the signing key and add trusted keys",
          problems);
      KeyPair pair = null;
      boolean created = false;
      if (Files.exists(keyFile, LinkOption.NOFOLLOW_LINKS)) {
        pair = readKeyFile(keyFile);
      } else if (write) {
        pair = createKeyFile(dir, keyFile);
        created = true;
      }
      if (pair != null) {
        reportWidePermissions(keyFile, "the signing key file", null, problems);
        if (write) {
          exportPublicKey(dir, pair.getPublic());
        }
      }
      Path trustedDir = dir.resolve(TRUSTED_DIR);
      if (Files.isDirectory(trustedDir)) {
        reportWidePermissions(trustedDir, "the trusted-key directory", "add trusted keys",
            problems);
      }
      Map<String, PublicKey> trusted = readTrusted(trustedDir, problems);
      return pair == null
          ? new KeyRing(dir, null, null, trusted, problems, false)
          : new KeyRing(dir, pair.getPrivate(), pair.getPublic(), trusted, problems, created);
    } catch (KeyFileException e) {
      throw ReaException.builder(
              Constraint.IO_ERROR,
              "the signing key file " + keyFile + " cannot be used: " + e.reason)
          .path(keyFile.toString())
          .diagnostic("path", keyFile.toString())
          .diagnostic("reason", e.reason)
          .diagnostic("exception", e.getClass().getName())
          .cause(e)
          .build();
    } catch (IOException e) {
      throw ReaException.builder(
              Constraint.IO_ERROR,
              "the REA home "
                  + dir
                  + (write
                      ? " could not be used: "
                          + describe(e)
                          + " (set REA_HOME to a writable directory for the signing keys)"
                      : " could not be read: " + describe(e)))
          .path(dir.toString())
          .diagnostic("reason", describe(e))
          .diagnostic("exception", e.getClass().getName())
          .cause(e)
          .build();
    }
  }

  /** @return true unless this ring was opened for reading in a home without a key pair */
  public boolean canSign() {
    return privateKey != null;
  }

  private IllegalStateException noKey() {
    return new IllegalStateException(
        "no signing key: the key ring of " + home + " was opened for reading and has no key pair");
  }

  /** @return true when {@link #open} created this key pair (first use of the home directory) */
  public boolean created() {
    return created;
  }

  /** @return the home directory this ring was read from */
  public Path home() {
    return home;
  }

  /**
   * @return the provider's key ID, {@code sha256:<hex>}
   * @throws IllegalStateException when the ring has no key pair ({@link #canSign()})
   */
  public String keyId() {
    if (keyId == null) {
      throw noKey();
    }
    return keyId;
  }

  /**
   * @return the provider's public key
   * @throws IllegalStateException when the ring has no key pair ({@link #canSign()})
   */
  public PublicKey publicKey() {
    if (publicKey == null) {
      throw noKey();
    }
    return publicKey;
  }

  /** @return trusted key IDs, the provider's own first */
  public Set<String> trustedKeyIds() {
    return trusted.keySet();
  }

  /** @return the trusted key with this ID, or null */
  public @Nullable PublicKey trustedKey(String id) {
    return trusted.get(id);
  }

  /**
   * @return what {@link #open} found wrong without failing, one line each: trusted-key files that
   *     were skipped ({@code "<file name>: <reason>"}, e.g. {@code "id.pem: holds no usable
   *     Ed25519 public key: ..."} or {@code "big.pem: larger than 65536 bytes"}), and on POSIX a
   *     home directory, {@code trusted/} directory or key pair file with permissions wider than
   *     its owner's ({@code "<path>: ..."}, saying who may write or read it and the chmod that
   *     fixes it)
   */
  public List<String> problems() {
    return problems;
  }

  /**
   * Signs bytes with the provider's private key.
   *
   * @return the 64-byte Ed25519 signature
   * @throws IllegalStateException when the ring has no key pair ({@link #canSign()})
   */
  public byte[] sign(byte[] message) {
    if (privateKey == null) {
      throw noKey();
    }
    try {
      Signature s = Signature.getInstance(ALGORITHM);
      s.initSign(privateKey);
      s.update(message);
      return s.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Ed25519 signing failed with the JDK provider", e);
    }
  }

  /**
   * Verifies an Ed25519 signature.
   *
   * @return true when {@code signature} is a valid signature of {@code message} by {@code key};
   *     always false for a key of small order or with a non-canonical encoding ({@link
   *     Ed25519PublicKeys})
   */
  public static boolean verify(PublicKey key, byte[] message, byte[] signature) {
    if (Ed25519PublicKeys.problem(key.getEncoded()) != null) {
      // A small-order key verifies forged signatures (see Ed25519PublicKeys): never trust it.
      return false;
    }
    try {
      Signature s = Signature.getInstance(ALGORITHM);
      s.initVerify(key);
      s.update(message);
      return s.verify(signature);
    } catch (InvalidKeyException | SignatureException e) {
      return false;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Ed25519 is missing from this JDK", e);
    }
  }

  /** @return {@code "sha256:" + hex(SHA-256(key.getEncoded()))} */
  public static String keyIdOf(PublicKey key) {
    return EvidenceIds.PREFIX + HexFormat.of().formatHex(EvidenceIds.sha256().digest(key.getEncoded()));
  }

  /** @return the PEM text (RFC 7468) of a public key's SubjectPublicKeyInfo */
  public static String publicKeyPem(PublicKey key) {
    return pem("PUBLIC KEY", key.getEncoded());
  }

  /**
   * Reads Ed25519 public keys from text: PEM {@code PUBLIC KEY} blocks, or when there is none,
   * the whole text as base64 of a DER SubjectPublicKeyInfo.
   *
   * @throws IllegalArgumentException when the text holds no Ed25519 public key, or a key that is
   *     not usable (small order or non-canonical encoding: the message starts with {@code "holds
   *     no usable Ed25519 public key"})
   */
  public static List<PublicKey> parsePublicKeys(String text) {
    return parsePublicKeys(text, skipped -> {});
  }

  /**
   * As {@link #parsePublicKeys(String)}, except that a file of several {@code PUBLIC KEY} blocks
   * keeps its usable keys when another block is not one: each such block is reported to {@code
   * skipped} ({@code "PUBLIC KEY block 2 of 3 skipped: <reason>"}) instead of failing the file.
   *
   * @param skipped receives one line per block skipped
   * @throws IllegalArgumentException when no block (or the whole text) is a usable key: the
   *     reason is the first block's
   */
  public static List<PublicKey> parsePublicKeys(String text, Consumer<String> skipped) {
    List<PublicKey> keys = new ArrayList<>();
    List<String> blocks = new ArrayList<>();
    Matcher m = PEM.matcher(text);
    int wellFormed = 0;
    while (m.find()) {
      wellFormed++;
      if (m.group(1).equals("PUBLIC KEY")) {
        blocks.add(m.group(2));
      }
    }
    if (wellFormed == 0) {
      keys.add(decodePublic(base64(text)));
      return keys;
    }
    int begins = text.split("-----BEGIN ", -1).length - 1;
    IllegalArgumentException first = null;
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      try {
        keys.add(decodePublic(base64(blocks.get(i))));
      } catch (IllegalArgumentException e) {
        first = first == null ? e : first;
        problems.add(
            "PUBLIC KEY block " + (i + 1) + " of " + blocks.size() + " skipped: " + e.getMessage());
      }
    }
    if (begins > wellFormed) {
      problems.add((begins - wellFormed)
          + (begins - wellFormed == 1 ? " PEM block" : " PEM blocks")
          + " not well formed (a BEGIN line without its END line, or text that is not base64)"
          + " skipped");
    }
    if (keys.isEmpty()) {
      throw first != null ? first : new IllegalArgumentException("no PUBLIC KEY block");
    }
    problems.forEach(skipped);
    return keys;
  }

  private static byte[] base64(String text) {
    try {
      return Base64.getMimeDecoder().decode(text.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("its base64 is malformed (" + e.getMessage() + ")", e);
    }
  }

  private static PublicKey decodePublic(byte[] der) {
    // The JDK refuses y >= p itself, but with a generic message: say it the same way as the rest.
    String raw = Ed25519PublicKeys.isEd25519Spki(der) ? Ed25519PublicKeys.problem(der) : null;
    if (raw != null) {
      throw new UnusableKeyException(UNUSABLE + ": " + raw);
    }
    PublicKey key;
    try {
      key = KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an Ed25519 SubjectPublicKeyInfo", e);
    }
    String problem = Ed25519PublicKeys.problem(key.getEncoded());
    if (problem != null) {
      throw new UnusableKeyException(UNUSABLE + ": " + problem);
    }
    return key;
  }

  private static final String UNUSABLE = "holds no usable Ed25519 public key";

  /** A public key that decodes but must not be trusted ({@link Ed25519PublicKeys}). */
  private static final class UnusableKeyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UnusableKeyException(String message) {
      super(message);
    }
  }

  /** The provider's key file cannot be used; {@link #open} reports it naming that file. */
  private static final class KeyFileException extends IOException {
    private static final long serialVersionUID = 1L;
    private final String reason;

    KeyFileException(String reason, @Nullable Throwable cause) {
      super(reason, cause);
      this.reason = reason;
    }
  }

  /** A small key file that is refused before or while it is read (the reason is the message). */
  private static final class RefusedFileException extends IOException {
    private static final long serialVersionUID = 1L;

    RefusedFileException(String reason) {
      super(reason);
    }
  }

  /**
   * Reads a small file: refused unless it is a regular file after following links (checked
   * before opening, so a FIFO or device is never opened), and never more than {@code max} bytes
   * read (a bounded loop, whatever size the file reports).
   *
   * @throws RefusedFileException "not a regular file" or "larger than max bytes"
   * @throws IOException when opening or reading fails
   */
  private static byte[] readSmallFile(Path p, int max) throws IOException {
    if (!Files.isRegularFile(p)) {
      throw new RefusedFileException(
          Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.exists(p)
              ? "a symbolic link to nothing"
              : "not a regular file");
    }
    try (InputStream in = Files.newInputStream(p)) {
      byte[] buf = new byte[max + 1];
      int n = in.readNBytes(buf, 0, buf.length);
      if (n > max) {
        throw new RefusedFileException("larger than " + max + " bytes");
      }
      return Arrays.copyOf(buf, n);
    }
  }

  /** @return the bytes as strict US-ASCII text */
  private static String ascii(byte[] bytes) throws CharacterCodingException {
    return StandardCharsets.US_ASCII
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(bytes))
        .toString();
  }

  /**
   * On POSIX, adds a problem when group or others may write {@code path} (or, for a file, read
   * it). Attributes that cannot be read are not reported (the reads that follow will say why).
   *
   * @param what e.g. "the REA home"
   * @param writeLets for a directory, what writing there lets someone do; null for the key file
   */
  private static void reportWidePermissions(
      Path path, String what, @Nullable String writeLets, List<String> problems) {
    if (!posix(path)) {
      return;
    }
    Set<PosixFilePermission> perms;
    try {
      perms = Files.getPosixFilePermissions(path);
    } catch (IOException | UnsupportedOperationException e) {
      return;
    }
    String mode = PosixFilePermissions.toString(perms);
    String writers = who(perms, PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
    if (writeLets != null) {
      if (writers != null) {
        problems.add(path + ": " + what + " is writable by " + writers + " (mode " + mode
            + "); whoever can write there can " + writeLets + "; run chmod go-w " + path);
      }
      return;
    }
    String readers = who(perms, PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);
    if (writers != null || readers != null) {
      problems.add(path + ": " + what + " is "
          + (readers != null ? "readable by " + readers : "")
          + (readers != null && writers != null ? " and " : "")
          + (writers != null ? "writable by " + writers : "")
          + " (mode " + mode + "); the private key must be its owner's only; run chmod 600 "
          + path);
    }
  }

  private static @Nullable String who(
      Set<PosixFilePermission> perms, PosixFilePermission group, PosixFilePermission others) {
    boolean g = perms.contains(group);
    boolean o = perms.contains(others);
    return g && o ? "its group and others" : g ? "its group" : o ? "others" : null;
  }

  private static PrivateKey decodePrivate(byte[] der) {
    try {
      return KeyFactory.getInstance(ALGORITHM).generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an Ed25519 PKCS#8 private key", e);
    }
  }

  private static String pem(String label, byte[] der) {
    String b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(der);
    return "-----BEGIN " + label + "-----\n" + b64 + "\n-----END " + label + "-----\n";
  }

  private static boolean posix(Path dir) {
    return dir.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  private static void createPrivateDirectory(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    if (posix(dir)) {
      Path parent = dir.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      FileAttribute<Set<PosixFilePermission>> attr =
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
      try {
        Files.createDirectory(dir, attr);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      } catch (FileAlreadyExistsException e) {
        if (!Files.isDirectory(dir)) {
          throw e;
        }
      }
    } else {
      Files.createDirectories(dir);
    }
  }

  private static KeyPair readKeyFile(Path keyFile) throws IOException {
    String text;
    try {
      text = ascii(readSmallFile(keyFile, MAX_KEY_FILE_BYTES));
    } catch (RefusedFileException e) {
      throw new KeyFileException("it is " + e.getMessage(), e);
    } catch (CharacterCodingException e) {
      throw new KeyFileException("it is malformed: it is not ASCII text", e);
    }
    Matcher m = PEM.matcher(text);
    PrivateKey priv = null;
    PublicKey pub = null;
    try {
      while (m.find()) {
        if (m.group(1).equals("PRIVATE KEY") && priv == null) {
          priv = decodePrivate(base64(m.group(2)));
        } else if (m.group(1).equals("PUBLIC KEY") && pub == null) {
          pub = decodePublic(base64(m.group(2)));
        }
      }
    } catch (UnusableKeyException e) {
      throw new KeyFileException("it " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new KeyFileException("it is malformed: " + e.getMessage(), e);
    }
    if (priv == null || pub == null) {
      throw new KeyFileException("it must hold a PRIVATE KEY and a PUBLIC KEY block", null);
    }
    byte[] probe = "rea key check".getBytes(StandardCharsets.US_ASCII);
    try {
      Signature s = Signature.getInstance(ALGORITHM);
      s.initSign(priv);
      s.update(probe);
      if (!verify(pub, probe, s.sign())) {
        throw new KeyFileException("it holds keys that do not form a pair", null);
      }
    } catch (GeneralSecurityException e) {
      throw new KeyFileException("its private key is unusable: " + e.getMessage(), e);
    }
    return new KeyPair(pub, priv);
  }

  private static KeyPair createKeyFile(Path dir, Path keyFile) throws IOException {
    KeyPair pair;
    try {
      pair = KeyPairGenerator.getInstance(ALGORITHM).generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Ed25519 is missing from this JDK", e);
    }
    String text =
        pem("PRIVATE KEY", pair.getPrivate().getEncoded())
            + pem("PUBLIC KEY", pair.getPublic().getEncoded());
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    Path tmp = dir.resolve("." + KEY_FILE + "." + Long.toUnsignedString(new SecureRandom().nextLong(), 36) + ".tmp");
    boolean posix = posix(dir);
    try {
      if (posix) {
        Files.createFile(
            tmp,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      } else {
        Files.createFile(tmp);
      }
      try (var ch = Files.newByteChannel(tmp, StandardOpenOption.WRITE)) {
        var buf = java.nio.ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        if (ch instanceof java.nio.channels.FileChannel fc) {
          fc.force(true);
        }
      }
      try {
        Files.createLink(keyFile, tmp);
      } catch (FileAlreadyExistsException e) {
        // Another process published its key first: use that one.
        return readKeyFile(keyFile);
      } catch (UnsupportedOperationException | IOException e) {
        if (Files.exists(keyFile, LinkOption.NOFOLLOW_LINKS)) {
          return readKeyFile(keyFile);
        }
        Files.move(tmp, keyFile, StandardCopyOption.ATOMIC_MOVE);
      }
      AtomicFiles.syncDirectory(dir);
      return pair;
    } finally {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException e) {
        // The temporary file is unpublished; leaving it behind loses nothing.
      }
    }
  }

  private static void exportPublicKey(Path dir, PublicKey key) throws IOException {
    Path pub = dir.resolve(PUBLIC_KEY_FILE);
    byte[] want = publicKeyPem(key).getBytes(StandardCharsets.US_ASCII);
    try {
      if (Files.isRegularFile(pub)
          && Files.size(pub) == want.length
          && Arrays.equals(readSmallFile(pub, want.length), want)) {
        return;
      }
    } catch (NoSuchFileException | RefusedFileException e) {
      // (re)write it below
    }
    AtomicFiles.write(pub, want);
  }

  private static Map<String, PublicKey> readTrusted(Path dir, List<String> problems)
      throws IOException {
    Map<String, PublicKey> out = new LinkedHashMap<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        files.add(p);
      }
    }
    Collections.sort(files);
    for (Path p : files) {
      String name = p.getFileName().toString();
      if (name.startsWith(".") || Files.isDirectory(p)) {
        continue;
      }
      try {
        String text = ascii(readSmallFile(p, MAX_TRUSTED_FILE_BYTES));
        for (PublicKey k : parsePublicKeys(text, skipped -> problems.add(name + ": " + skipped))) {
          out.putIfAbsent(keyIdOf(k), k);
        }
      } catch (RefusedFileException | IllegalArgumentException e) {
        problems.add(name + ": " + e.getMessage());
      } catch (CharacterCodingException e) {
        problems.add(name + ": not ASCII text");
      } catch (IOException e) {
        problems.add(name + ": " + describe(e));
      }
    }
    return out;
  }

  private static String describe(IOException e) {
    return dev.rea.core.internal.io.IoFailures.describeWithFile(e);
  }
}
