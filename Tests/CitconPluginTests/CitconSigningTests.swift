import Foundation
import Testing

@testable import CitconPlugin

/// Expected digests were computed outside Swift, e.g.
/// `printf '%s' 'amount=100&…&status=success&secret=s' | sha256sum`.
@Suite struct CitconSigningTests {
    static let simpleSign = "2ee984e47f661e8306093699f44c28feef5ebdc8b00351f107e4cfe13066b442"
    static let simple: [String: String] = [
        "amount": "100", "currency": "USD", "id": "1", "reference": "r", "status": "success",
        "fields": "amount,currency,id,reference,status",
    ]

    @Test func signStringFollowsTheRule() {
        #expect(
            CitconSigning.signString(values: Self.simple, secret: "s")
                == "amount=100&currency=USD&fields=amount,currency,id,reference,status"
                + "&id=1&reference=r&status=success&secret=s"
        )
    }

    @Test func signMatchesAnIndependentDigest() {
        #expect(CitconSigning.sign(values: Self.simple, secret: "s") == Self.simpleSign)
    }

    @Test func unsortedFieldsEmptyValuesAndRawValues() {
        var values = CitconIPNSamples.chargeValues
        values["sign"] = "ignored"
        values["not_signed"] = "whatever"
        #expect(CitconSigning.sign(values: values, secret: CitconIPNSamples.secret) == CitconIPNSamples.chargeSign)
    }

    @Test func signedKeysIncludeFieldsAndAreSorted() {
        #expect(CitconSigning.signedKeys(fieldsValue: "status, id,amount,id") == ["amount", "fields", "id", "status"])
    }

    @Test func verifyAcceptsOnlyTheRightSign() {
        var pairs = Self.simple.map { (key: $0.key, value: $0.value) }
        pairs.append((key: "sign", value: Self.simpleSign))
        #expect(CitconSigning.verify(pairs, secret: "s") == .verified(signed: Self.simple))
        #expect(CitconSigning.verify(pairs, secret: "t") == .rejected(reason: "signature mismatch"))
        var upper = pairs
        upper[upper.count - 1].value = Self.simpleSign.uppercased()
        #expect(CitconSigning.verify(upper, secret: "s") == .verified(signed: Self.simple))
    }

    @Test func verifyRejectsTamperingAndMissingParts() {
        let base = Self.simple.map { (key: $0.key, value: $0.value) } + [(key: "sign", value: Self.simpleSign)]
        let tampered = base.map { $0.key == "amount" ? (key: "amount", value: "1000") : $0 }
        #expect(CitconSigning.verify(tampered, secret: "s") == .rejected(reason: "signature mismatch"))
        #expect(
            CitconSigning.verify(base.filter { $0.key != "sign" }, secret: "s") == .rejected(reason: "missing sign"))
        #expect(
            CitconSigning.verify(base.filter { $0.key != "fields" }, secret: "s") == .rejected(reason: "missing fields")
        )
        #expect(
            CitconSigning.verify(base + [(key: "status", value: "fail")], secret: "s")
                == .rejected(reason: "repeated field"))
        let emptySign = base.map { $0.key == "sign" ? (key: "sign", value: "") : $0 }
        #expect(CitconSigning.verify(emptySign, secret: "s") == .rejected(reason: "missing sign"))
    }

    @Test func verifiedValuesAreOnlyTheSignedOnes() {
        let pairs: [(key: String, value: String)] = [
            (key: "id", value: "1"), (key: "reference", value: "r"), (key: "status", value: "success"),
            (key: "fields", value: "id,reference"),
            (key: "sign", value: "881eeac1249f3ad024881d148a0ef9317d993fb03860e6ffcc81a05311918614"),
        ]
        #expect(
            CitconSigning.verify(pairs, secret: "s")
                == .verified(signed: ["id": "1", "reference": "r", "fields": "id,reference"]))
    }

    // MARK: Body parsing

    @Test func formBodyIsPercentDecodedWithPlusAsSpace() throws {
        let pairs = try #require(CitconIPNBody.parse(Data("a=1&b=x+y%2Bz&c=&d&e=%E2%82%AC%2C".utf8), contentType: nil))
        #expect(pairs.map(\.key) == ["a", "b", "c", "d", "e"])
        #expect(pairs.map(\.value) == ["1", "x y+z", "", "", "€,"])
    }

    @Test func malformedFormIsRejected() {
        #expect(CitconIPNBody.parse(Data("a=%ZZ".utf8), contentType: "application/x-www-form-urlencoded") == nil)
        #expect(CitconIPNBody.parse(Data("=1".utf8), contentType: nil) == nil)
    }

    @Test func jsonValuesAreTakenAsTheyAppear() throws {
        let body = #"""
             { "s": "a\"b\\c\u00e9\ud83d\ude00", "n": 100, "f": 1.50, "neg": -3, "t": true, "z": null,
               "o": {"k": [1, "}"]}, "e": "" }
            """#
        let pairs = try #require(CitconIPNBody.parse(Data(body.utf8), contentType: "application/json; charset=utf-8"))
        let values = Dictionary(uniqueKeysWithValues: pairs.map { ($0.key, $0.value) })
        #expect(pairs.map(\.key) == ["s", "n", "f", "neg", "t", "z", "o", "e"])
        #expect(values["s"] == "a\"b\\cé😀")
        #expect(values["n"] == "100")
        #expect(values["f"] == "1.50")
        #expect(values["neg"] == "-3")
        #expect(values["t"] == "true")
        #expect(values["z"] == "")
        #expect(values["o"] == #"{"k": [1, "}"]}"#)
        #expect(values["e"] == "")
    }

    @Test(arguments: [
        #"{"a":1"#, #"{"a":}"#, #"{"a" 1}"#, #"["a"]"#, #"{"a":1} x"#, #"{"a":"\x"}"#, #"{"a":"\u12G4"}"#,
    ])
    func malformedJSONIsRejected(text: String) {
        #expect(CitconIPNBody.parse(Data(text.utf8), contentType: "application/json") == nil)
    }

    @Test func contentTypeOrFirstByteChoosesTheParser() throws {
        let json = try #require(CitconIPNBody.parse(Data(#"  {"a":"1"}"#.utf8), contentType: nil))
        #expect(json.first?.key == "a")
        let form = try #require(CitconIPNBody.parse(Data("a=1".utf8), contentType: "text/plain"))
        #expect(form.first?.value == "1")
    }
}
