package dev.rea.spark;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;

/**
 * A Hadoop {@link Configuration} that Java serialization can ship from the driver to the
 * executors (Hadoop's {@code Configuration} is {@code Writable}, not {@code Serializable}): it
 * carries the driver's settings, {@code spark.hadoop.*} among them, so executors reach the same
 * file systems with the same credentials providers and options.
 */
final class SerializableConf implements Serializable {
  private static final long serialVersionUID = 1L;

  private transient Configuration conf;

  /** @param conf the configuration (not copied: do not change it afterwards) */
  public SerializableConf(Configuration conf) {
    this.conf = conf;
  }

  /** @return the configuration */
  public Configuration get() {
    return conf;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    conf.write(out);
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    conf = new Configuration(false);
    conf.readFields(in);
  }
}
