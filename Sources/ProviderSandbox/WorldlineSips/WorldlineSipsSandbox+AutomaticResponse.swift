import Foundation
import SwitchyardCrypto

extension WorldlineSipsSandbox {
    /// Builds, seals (or mis-seals under the `badSignature` fault) and queues the automatic response of
    /// each decided transaction whose init named an `automaticResponseUrl`.
    func sendAutomaticResponses(for transactions: [WorldlineSipsTransaction]) async {
        for transaction in transactions {
            guard let url = transaction.automaticResponseUrl, let merchant = merchantsById[transaction.merchantId]
            else { continue }
            if await faults.takeDroppedNotification(merchant: merchant.merchantId) { continue }
            let data = Self.automaticResponseData(
                transaction, keyVersion: merchant.keyVersion, seal: configuration.automaticResponseSeal)
            let sent = configuration.automaticResponseBase64 ? Base64.encode(Array(data.utf8)) : data
            let corrupt = await faults.takeBadSignature(merchant: merchant.merchantId)
            // A wrong seal is a valid seal over other content.
            let seal = WorldlineSipsSeal.postSeal(
                data: corrupt ? sent + " " : sent, secret: merchant.secretKey,
                algorithm: configuration.automaticResponseSeal)
            let body = SipsForm.encode([
                ("Data", sent), ("Seal", seal), ("InterfaceVersion", configuration.automaticResponseInterfaceVersion),
                ("Encode", configuration.automaticResponseBase64 ? "base64" : ""),
            ])
            await notifier.enqueue(
                SandboxNotification(
                    provider: name, merchant: merchant.merchantId, subject: transaction.transactionReference, url: url,
                    contentType: "application/x-www-form-urlencoded", body: Array(body.utf8)))
        }
    }

    /// The `Data` text of a transaction's automatic response: `key=value` pairs joined by `|`, absent
    /// values left out.
    static func automaticResponseData(
        _ transaction: WorldlineSipsTransaction, keyVersion: Int, seal: WorldlineSipsAutomaticResponseSeal
    ) -> String {
        let pairs: [(String, String?)] = [
            ("amount", String(transaction.originAmount)),
            ("currencyCode", transaction.currencyCode),
            ("merchantId", transaction.merchantId),
            ("transactionReference", transaction.transactionReference),
            ("returnContext", transaction.returnContext),
            ("responseCode", transaction.responseCode),
            ("acquirerResponseCode", transaction.acquirerResponseCode),
            ("authorisationId", transaction.authorisationId),
            ("captureMode", transaction.captureMode),
            ("captureDay", String(transaction.captureDay)),
            ("transactionDateTime", SipsTime.dateTime(transaction.transactionDateTime)),
            ("maskedPan", transaction.maskedPan),
            ("panExpiryDate", transaction.panExpiryDate),
            ("paymentMeanBrand", transaction.paymentMeanBrand),
            ("paymentMeanType", "CARD"),
            ("orderChannel", transaction.orderChannel),
            ("customerId", transaction.customerId),
            ("orderId", transaction.orderId),
            ("merchantWalletId", transaction.merchantWalletId),
            ("holderAuthentStatus", transaction.holderAuthentStatus),
            ("keyVersion", String(keyVersion)),
            ("sealAlgorithm", seal.sealAlgorithm),
        ]
        return pairs.compactMap { name, value in value.map { "\(name)=\($0)" } }.joined(separator: "|")
    }
}

/// `application/x-www-form-urlencoded` bodies.
enum SipsForm {
    private static let unreserved: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))

    /// `name=value&…`, every byte outside the unreserved set percent-encoded.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// The fields of a form body (`+` is a space; the last value wins when a name repeats).
    static func decode(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(parts[0])
            fields[name] = parts.count > 1 ? unescape(parts[1]) : ""
        }
        return fields
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + Hex.encode([byte]).uppercased()
            }
        }
        return out
    }

    private static func unescape(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
