import Foundation
import SwitchyardCrypto

/// An IPN to send: the merchant, the destination and the signed fields (without `fields`/`sign`).
struct CitconIPNEvent: Sendable {
    var merchant: String
    var url: String
    var subject: String
    var fields: [(String, String)]

    /// The names of the signed fields, in wire order.
    static let signedFieldNames = [
        "id", "transaction_type", "reference", "amount", "currency", "status", "time_created",
        "time_completed", "payment_method", "amount_captured", "amount_refunded",
    ]

    /// A charge notification (`transaction_type` `charge`), or nil when the charge has no IPN URL.
    static func charge(_ charge: CitconCharge, status: String, completedAt: Date) -> CitconIPNEvent? {
        guard let url = charge.ipnURL else { return nil }
        return CitconIPNEvent(
            merchant: charge.merchant,
            url: url,
            subject: charge.reference,
            fields: [
                ("id", charge.id),
                ("transaction_type", "charge"),
                ("reference", charge.reference),
                ("amount", String(charge.amount)),
                ("currency", charge.currency),
                ("status", status),
                ("time_created", String(charge.createdAt.epochSeconds)),
                ("time_completed", String(completedAt.epochSeconds)),
                ("payment_method", charge.paymentMethod ?? ""),
                ("amount_captured", String(charge.amountCaptured)),
                ("amount_refunded", String(charge.amountRefunded)),
            ]
        )
    }

    /// A refund notification (`transaction_type` `refund`, `status` `success`); `id` and `reference`
    /// are the refund's own, the amounts captured and refunded are the charge's totals.
    static func refund(
        _ charge: CitconCharge,
        refundID: String,
        reference: String,
        amount: Int64,
        completedAt: Date
    ) -> CitconIPNEvent? {
        guard let url = charge.ipnURL else { return nil }
        return CitconIPNEvent(
            merchant: charge.merchant,
            url: url,
            subject: reference,
            fields: [
                ("id", refundID),
                ("transaction_type", "refund"),
                ("reference", reference),
                ("amount", String(amount)),
                ("currency", charge.currency),
                ("status", "success"),
                ("time_created", String(completedAt.epochSeconds)),
                ("time_completed", String(completedAt.epochSeconds)),
                ("payment_method", charge.paymentMethod ?? ""),
                ("amount_captured", String(charge.amountCaptured)),
                ("amount_refunded", String(charge.amountRefunded)),
            ]
        )
    }

    /// The statuses of a chargeback, as Citcon's IPN reference spells them.
    static let chargebackStatuses = [
        "Notification of Claim", "Request For Information", "Information Supplied", "Lost", "Won", "Case Closed",
    ]

    /// A chargeback notification (`transaction_type` `chargeback`) of `charge` at `status`, named by `id`
    /// (and `chargeback_id` when `chargebackID` is given), with a `due_date` when `dueBy` is given.
    static func chargeback(
        _ charge: CitconCharge, status: String, amount: Int64, chargebackID: String?, dueBy: Date?, at time: Date
    ) -> CitconIPNEvent? {
        guard let url = charge.ipnURL else { return nil }
        var fields: [(String, String)] = [
            ("id", charge.id), ("transaction_type", "chargeback"), ("reference", charge.reference),
            ("amount", String(amount)), ("currency", charge.currency), ("status", status),
            ("time_created", String(time.epochSeconds)), ("time_completed", String(time.epochSeconds)),
            ("payment_method", charge.paymentMethod ?? ""),
        ]
        if let chargebackID { fields.append(("chargeback_id", chargebackID)) }
        if let dueBy {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            fields.append(("due_date", formatter.string(from: dueBy)))
        }
        return CitconIPNEvent(merchant: charge.merchant, url: url, subject: charge.reference, fields: fields)
    }

    /// Every field as sent, `fields` and `sign` included. A wrong signature (fault `badSignature`) is
    /// computed with a different secret, so it looks well-formed but does not verify.
    func signedFields(secret: String, corrupt: Bool) -> [(String, String)] {
        var all = fields
        all.append(("fields", fields.map(\.0).joined(separator: ",")))
        let sign = Self.sign(all, secret: corrupt ? secret + "-wrong" : secret)
        all.append(("sign", sign))
        return all
    }

    /// The contract's rule: the named fields plus `fields`, sorted by key, `k=v` joined by `&` with raw
    /// values, then `&secret=<secret>`; lowercase hex SHA-256.
    static func sign(_ fields: [(String, String)], secret: String) -> String {
        let canonical = fields.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return Hex.encode(SHA2.sha256(canonical + "&secret=" + secret))
    }

    /// Body and content type for the configured encoding.
    static func encode(_ fields: [(String, String)], as encoding: CitconIPNEncoding) -> (
        body: [UInt8], contentType: String
    ) {
        switch encoding {
        case .form:
            let body = fields.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&")
            return (Array(body.utf8), "application/x-www-form-urlencoded")
        case .json:
            let object = Dictionary(fields, uniquingKeysWith: { _, last in last })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = (try? encoder.encode(object)) ?? Data("{}".utf8)
            return (Array(data), "application/json")
        }
    }

    /// `application/x-www-form-urlencoded` escaping: unreserved bytes kept, space as `+`, others `%XX`.
    static func formEncode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out.append("+")
            default:
                let hex = Hex.encode([byte]).uppercased()
                out.append("%\(hex)")
            }
        }
        return out
    }
}
