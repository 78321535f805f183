import ArgumentParser
import Foundation
import SwitchyardCrypto
import SwitchyardStore
import Testing

@testable import SwitchyardCommands

/// What `switchyard kek status` prints and how the keyring is read from the options.
struct KekCommandTests {
    @Test func statusTellsPerKeyIdHowManyValuesUseItAndWhenAnOldKeyCanGo() throws {
        let (a, b) = (SecureRandom.bytes(32), SecureRandom.bytes(32))
        let (idA, idB) = (SecretBox.keyId(of: a), SecretBox.keyId(of: b))
        let keyring = try SecretBox(key: b, previous: [a])
        let during = KekCommand.statusLines(
            [
                SealedValueCount(column: "webhook_endpoints.secret_encrypted", keyId: idA, count: 2),
                SealedValueCount(column: "webhook_endpoints.secret_encrypted", keyId: idB, count: 3),
                SealedValueCount(column: "provider_tokens.token_encrypted", keyId: idA, count: 1),
                SealedValueCount(column: "provider_tokens.token_encrypted", keyId: "legacy", count: 4),
                SealedValueCount(column: "stored_credentials.token", keyId: "00000000deadbeef", count: 1),
            ], keyring: keyring)
        #expect(
            during == [
                "key \(idB) (current): 3 values [webhook_endpoints.secret_encrypted=3]",
                "key \(idA) (previous): 3 values [webhook_endpoints.secret_encrypted=2 provider_tokens.token_encrypted=1]",
                "key 00000000deadbeef (NOT CONFIGURED): 1 values [stored_credentials.token=1]",
                "key legacy (sealed before key ids; opens with a configured key): 4 values [provider_tokens.token_encrypted=4]",
            ])
        let after = KekCommand.statusLines(
            [SealedValueCount(column: "webhook_endpoints.secret_encrypted", keyId: idB, count: 5)], keyring: keyring)
        #expect(after.count == 2)
        #expect(after[1] == "key \(idA) (previous): 0 values (nothing uses it: it can be removed)")
    }

    @Test func previousKeysComeFromTheirFilesAndABadOneIsRefusedNamingWhere() throws {
        let (a, b) = (SecureRandom.bytes(32), SecureRandom.bytes(32))
        let directory = NSTemporaryDirectory() + "kek-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data((Data(a).base64EncodedString() + "\n").utf8).write(to: URL(fileURLWithPath: directory + "/old"))
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: directory + "/bad"))

        let options = try DatabaseOptions.parse(["--kek-previous-file", directory + "/old"])
        let keyring = try CommandSupport.secretBox(current: Hex.encode(b), options)
        #expect(keyring.currentKeyId == SecretBox.keyId(of: b))
        #expect(keyring.previousKeyIds == [SecretBox.keyId(of: a)])

        let bad = try DatabaseOptions.parse([
            "--kek-previous-file", directory + "/old", "--kek-previous-file", directory + "/bad",
        ])
        #expect(throws: ValidationError.self) { try CommandSupport.secretBox(current: Hex.encode(b), bad) }
        #expect(throws: ValidationError.self) { try CommandSupport.secretBox(current: "short", options) }
    }
}
