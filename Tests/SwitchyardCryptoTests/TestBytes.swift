import SwitchyardCrypto

/// Decodes a hex fixture, ignoring spaces and newlines; crashes the test on a typo in the fixture.
func hex(_ text: String) -> [UInt8] {
    let compact = String(text.filter { !$0.isWhitespace })
    guard let bytes = Hex.decode(compact) else { fatalError("bad hex fixture") }
    return bytes
}

/// The UTF-8 bytes of `text`.
func utf8(_ text: String) -> [UInt8] {
    Array(text.utf8)
}
