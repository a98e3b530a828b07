package dev.rea.core.auth;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceIds;
import dev.rea.core.io.AtomicFiles;
import java.io.IOException;
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
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 *   <li>{@value #TRUSTED_DIR}{@code /}: every regular, non-hidden file up to 64 KiB holds one or
 *       more Ed25519 public keys, each either a {@code -----BEGIN PUBLIC KEY-----} PEM block or
 *       (when the file has no PEM block) the base64 of the DER SubjectPublicKeyInfo on its own.
 *       Files that cannot be read as such are skipped and listed in {@link #problems()}.
 * </ul>
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
          "-----BEGIN ([A-Z ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)\\s*-----END \\1-----");

  private final Path home;
  private final PrivateKey privateKey;
  private final PublicKey publicKey;
  private final boolean created;
  private final String keyId;
  private final Map<String, PublicKey> trusted;
  private final List<String> problems;

  private KeyRing(
      Path home,
      PrivateKey privateKey,
      PublicKey publicKey,
      Map<String, PublicKey> trusted,
      List<String> problems,
      boolean created) {
    this.home = home;
    this.created = created;
    this.privateKey = privateKey;
    this.publicKey = publicKey;
    this.keyId = keyIdOf(publicKey);
    Map<String, PublicKey> all = new LinkedHashMap<>();
    all.put(keyId, publicKey);
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
   *     cannot be created or read, or the key file is malformed (the path and reason are in the
   *     diagnostics)
   */
  public static KeyRing open(Path home) throws ReaException {
    Objects.requireNonNull(home, "home");
    Path dir = home.toAbsolutePath().normalize();
    try {
      createPrivateDirectory(dir);
      Path keyFile = dir.resolve(KEY_FILE);
      KeyPair pair;
      boolean created = false;
      if (Files.exists(keyFile, LinkOption.NOFOLLOW_LINKS)) {
        pair = readKeyFile(keyFile);
      } else {
        pair = createKeyFile(dir, keyFile);
        created = true;
      }
      exportPublicKey(dir, pair.getPublic());
      List<String> problems = new ArrayList<>();
      Map<String, PublicKey> trusted = readTrusted(dir.resolve(TRUSTED_DIR), problems);
      return new KeyRing(dir, pair.getPrivate(), pair.getPublic(), trusted, problems, created);
    } catch (IOException e) {
      throw ReaException.builder(
              Constraint.IO_ERROR, "the REA home " + dir + " could not be used: " + describe(e))
          .path(dir.toString())
          .diagnostic("reason", describe(e))
          .diagnostic("exception", e.getClass().getName())
          .cause(e)
          .build();
    }
  }

  /** @return true when {@link #open} created this key pair (first use of the home directory) */
  public boolean created() {
    return created;
  }

  /** @return the home directory this ring was read from */
  public Path home() {
    return home;
  }

  /** @return the provider's key ID, {@code sha256:<hex>} */
  public String keyId() {
    return keyId;
  }

  /** @return the provider's public key */
  public PublicKey publicKey() {
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

  /** @return descriptions of trusted-key files that were skipped (file name and reason) */
  public List<String> problems() {
    return problems;
  }

  /**
   * Signs bytes with the provider's private key.
   *
   * @return the 64-byte Ed25519 signature
   */
  public byte[] sign(byte[] message) {
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
   * @return true when {@code signature} is a valid signature of {@code message} by {@code key}
   */
  public static boolean verify(PublicKey key, byte[] message, byte[] signature) {
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
   * @throws IllegalArgumentException when the text holds no Ed25519 public key
   */
  public static List<PublicKey> parsePublicKeys(String text) {
    List<PublicKey> keys = new ArrayList<>();
    Matcher m = PEM.matcher(text);
    boolean anyBlock = false;
    while (m.find()) {
      anyBlock = true;
      if (m.group(1).equals("PUBLIC KEY")) {
        keys.add(decodePublic(base64(m.group(2))));
      }
    }
    if (!anyBlock) {
      keys.add(decodePublic(base64(text)));
    }
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("no PUBLIC KEY block");
    }
    return keys;
  }

  private static byte[] base64(String text) {
    return Base64.getMimeDecoder().decode(text.strip());
  }

  private static PublicKey decodePublic(byte[] der) {
    try {
      return KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an Ed25519 SubjectPublicKeyInfo", e);
    }
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
    if (Files.size(keyFile) > MAX_KEY_FILE_BYTES) {
      throw new IOException("the signing key file " + keyFile + " is larger than expected");
    }
    String text = Files.readString(keyFile, StandardCharsets.US_ASCII);
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
    } catch (IllegalArgumentException e) {
      throw new IOException("the signing key file " + keyFile + " is malformed: " + e.getMessage());
    }
    if (priv == null || pub == null) {
      throw new IOException(
          "the signing key file " + keyFile + " must hold a PRIVATE KEY and a PUBLIC KEY block");
    }
    byte[] probe = "rea key check".getBytes(StandardCharsets.US_ASCII);
    try {
      Signature s = Signature.getInstance(ALGORITHM);
      s.initSign(priv);
      s.update(probe);
      if (!verify(pub, probe, s.sign())) {
        throw new IOException(
            "the signing key file " + keyFile + " holds keys that do not form a pair");
      }
    } catch (GeneralSecurityException e) {
      throw new IOException("the signing key in " + keyFile + " is unusable: " + e.getMessage());
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
      if (Files.size(pub) == want.length
          && java.util.Arrays.equals(Files.readAllBytes(pub), want)) {
        return;
      }
    } catch (NoSuchFileException e) {
      // write it below
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
      if (name.startsWith(".") || !Files.isRegularFile(p)) {
        continue;
      }
      try {
        if (Files.size(p) > MAX_TRUSTED_FILE_BYTES) {
          problems.add(name + ": larger than " + MAX_TRUSTED_FILE_BYTES + " bytes");
          continue;
        }
        for (PublicKey k : parsePublicKeys(Files.readString(p, StandardCharsets.US_ASCII))) {
          out.putIfAbsent(keyIdOf(k), k);
        }
      } catch (IllegalArgumentException | java.nio.charset.CharacterCodingException e) {
        problems.add(name + ": " + e.getMessage());
      } catch (IOException e) {
        problems.add(name + ": " + describe(e));
      }
    }
    return out;
  }

  private static String describe(IOException e) {
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + m;
  }
}
