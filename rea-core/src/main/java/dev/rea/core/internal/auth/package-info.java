/**
 * Signing and verifying Evidence with Ed25519 keys kept in the REA home directory (CONTRACT section 5).
 */
@NullMarked
package dev.rea.core.internal.auth;

import org.jspecify.annotations.NullMarked;
