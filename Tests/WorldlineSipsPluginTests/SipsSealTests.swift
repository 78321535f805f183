import Foundation
import ProviderKit
import ProviderTestSupport
import SwitchyardCrypto
import Testing

@testable import WorldlineSipsPlugin

@Suite struct SipsSealTests {
    /// The published vector's fields (PROVIDERS.md §5.2).
    static let vector: [String: JSONValue] = [
        "amount": .integer(2), "automaticResponseUrl": .string("http://test.com"), "currencyCode": .string("978"),
        "interfaceVersion": .string("IR_WS_2.19"), "normalReturnUrl": .string("http://localhost/return.php"),
        "orderChannel": .string("INTERNET"), "templateName": .string("custom"),
        "transactionReference": .string("test"),
    ]

    @Test func publishedVector() {
        #expect(
            SipsSeal.sealString(of: Self.vector)
                == "2http://test.com978IR_WS_2.19http://localhost/return.phpINTERNETcustomtest")
        #expect(
            SipsSeal.seal(of: Self.vector, secret: Fixtures.secretKey)
                == "2442cf7b069bfcaba1f432ebd663d4f57932d0059c117b9cd4466a311c946508")
    }

    @Test func excludedFieldsDoNotChangeTheSeal() {
        var fields = Self.vector
        fields["keyVersion"] = .integer(1)
        fields["sealAlgorithm"] = .string("HMAC-SHA-256")
        fields["seal"] = .string("anything")
        #expect(
            SipsSeal.seal(of: fields, secret: Fixtures.secretKey)
                == "2442cf7b069bfcaba1f432ebd663d4f57932d0059c117b9cd4466a311c946508")
    }

    @Test func brandListVariantMatchesTheOpenSSLTool() throws {
        var fields = Self.vector
        fields["paymentMeanBrandList"] = .array([.string("VISA"), .string("MASTERCARD")])
        let text = SipsSeal.sealString(of: fields)
        #expect(text == "2http://test.com978IR_WS_2.19http://localhost/return.phpINTERNETVISAMASTERCARDcustomtest")
        let tool = try OpenSSLCLI()
        defer { tool.cleanUp() }
        try tool.write("seal.txt", text)
        let output = try tool.mustRun(["dgst", "-sha256", "-hmac", Fixtures.secretKey, "seal.txt"])
        let cli = try #require(String(decoding: output, as: UTF8.self).split(separator: " ").last)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(cli.count == 64)
        #expect(SipsSeal.seal(of: fields, secret: Fixtures.secretKey) == cli)
        #expect(
            SipsSeal.seal(of: fields, secret: Fixtures.secretKey)
                != SipsSeal.seal(of: Self.vector, secret: Fixtures.secretKey))
    }

    @Test func nestedObjectsAndArraysExpandInPlace() {
        let fields: [String: JSONValue] = [
            "b": .object(["z": .string("1"), "a": .string("2"), "n": .null]),
            "a": .array([.object(["y": .string("3"), "x": .string("4")]), .string("5"), .integer(6), .bool(true)]),
            "c": .null,
            "d": .bool(false),
            "Z": .string("upper"),
            "keyVersion": .integer(3),
        ]
        // Byte order puts `Z` before the lower-case names; nulls contribute nothing.
        #expect(SipsSeal.sealString(of: fields) == "upper4356true21false")
        #expect(SipsSeal.sealString(of: fields) == TestSeal.string(fields))
    }

    @Test func encodableRequestsAreSealedOverWhatIsSent() throws {
        let request = SipsTransactionDataRequest(
            interfaceVersion: "DR_WS_2.9", keyVersion: 1, merchantId: Fixtures.merchantId,
            sealAlgorithm: "HMAC-SHA-256", seal: nil, transactionReference: "att01")
        let seal = try SipsSeal.seal(of: request, secret: Fixtures.secretKey)
        #expect(seal == HMAC.sha256(key: Fixtures.secretKey, message: "DR_WS_2.9" + Fixtures.merchantId + "att01").hex)
    }

    @Test func responseSealVerification() {
        var fields: [String: JSONValue] = [
            "responseCode": .string("00"), "transactionStatus": .string("CAPTURED"), "originAmount": .integer(1250),
            "keyVersion": .integer(1),
        ]
        let seal = TestSeal.seal(fields)
        fields["seal"] = .string(seal)
        #expect(SipsSeal.verify(fields, secret: Fixtures.secretKey))

        var upper = fields
        upper["seal"] = .string(seal.uppercased())
        #expect(SipsSeal.verify(upper, secret: Fixtures.secretKey))

        var tampered = fields
        tampered["originAmount"] = .integer(1251)
        #expect(!SipsSeal.verify(tampered, secret: Fixtures.secretKey))

        var added = fields
        added["currentAmount"] = .integer(0)
        #expect(!SipsSeal.verify(added, secret: Fixtures.secretKey))

        var missing = fields
        missing["seal"] = nil
        #expect(!SipsSeal.verify(missing, secret: Fixtures.secretKey))

        var numeric = fields
        numeric["seal"] = .integer(1)
        #expect(!SipsSeal.verify(numeric, secret: Fixtures.secretKey))

        #expect(!SipsSeal.verify(fields, secret: "other_KEY1"))
    }

    @Test func automaticResponseSealForms() {
        let data = "amount=1250|currencyCode=978|merchantId=\(Fixtures.merchantId)|responseCode=00"
        let hmac = HMAC.sha256(key: Fixtures.secretKey, message: data).hex
        let sha = SHA2.sha256Hex(data + Fixtures.secretKey)
        #expect(SipsSeal.hmacDataSeal(data, secret: Fixtures.secretKey) == hmac)
        #expect(SipsSeal.sha256DataSeal(data, secret: Fixtures.secretKey) == sha)
        #expect(SipsSeal.verifyData(data, seal: hmac, secret: Fixtures.secretKey))
        #expect(SipsSeal.verifyData(data, seal: sha.uppercased(), secret: Fixtures.secretKey))
        #expect(!SipsSeal.verifyData(data + "|x=1", seal: hmac, secret: Fixtures.secretKey))
        #expect(!SipsSeal.verifyData(data, seal: "", secret: Fixtures.secretKey))
        #expect(!SipsSeal.verifyData(data, seal: hmac, secret: "other_KEY1"))
    }
}
