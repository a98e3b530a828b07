/**
 * Model sets: finding a set's members (sharded safetensors, split GGUF), inspecting them and
 * checking that they agree.
 */
@NullMarked
package dev.rea.core.internal.set;

import org.jspecify.annotations.NullMarked;
