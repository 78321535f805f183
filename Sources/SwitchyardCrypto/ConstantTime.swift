import COpenSSL

/// Compares two byte sequences in time that depends only on their length, not their contents.
///
/// Use it for MACs, signatures and tokens. Different lengths compare unequal (the length itself is not secret).
public func constantTimeEquals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    return withContiguousBytes(a) { aPointer, count in
        withContiguousBytes(b) { bPointer, _ in
            CRYPTO_memcmp(aPointer, bPointer, count) == 0
        }
    }
}

/// Compares the UTF-8 bytes of two strings in constant time (see ``constantTimeEquals(_:_:)``).
public func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    constantTimeEquals(a.utf8, b.utf8)
}
