/// Which IP addresses a server-side fetch of a shared link may connect to: public unicast only.
///
/// Every range of the IANA IPv4 and IPv6 Special-Purpose Address Registries is refused —
/// loopback, private, shared (CGNAT), link-local (which holds the cloud metadata address
/// 169.254.169.254), documentation, benchmarking, multicast, reserved — and, for IPv6, everything
/// outside global unicast `2000::/3`. Addresses that carry an IPv4 address (IPv4-mapped
/// `::ffff:0:0/96`, the NAT64 prefix `64:ff9b::/96`) are judged by the IPv4 address they carry;
/// IPv4-compatible, 6to4 and Teredo addresses are refused outright.
public enum AddressPolicy {
    struct Range {
        let prefix: [UInt8]
        let length: Int
        let name: String

        func contains(_ address: [UInt8]) -> Bool {
            var remaining = length
            for (index, byte) in prefix.enumerated() where remaining > 0 {
                let bits = min(8, remaining)
                let mask: UInt8 = bits == 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if address[index] & mask != byte & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    static let ipv4: [Range] = [
        Range(prefix: [0, 0, 0, 0], length: 8, name: "this network (0.0.0.0/8)"),
        Range(prefix: [10, 0, 0, 0], length: 8, name: "private (10.0.0.0/8)"),
        Range(prefix: [100, 64, 0, 0], length: 10, name: "shared address space (100.64.0.0/10)"),
        Range(prefix: [127, 0, 0, 0], length: 8, name: "loopback (127.0.0.0/8)"),
        Range(prefix: [169, 254, 0, 0], length: 16, name: "link-local, where cloud metadata lives (169.254.0.0/16)"),
        Range(prefix: [172, 16, 0, 0], length: 12, name: "private (172.16.0.0/12)"),
        Range(prefix: [192, 0, 0, 0], length: 24, name: "IETF protocol assignments (192.0.0.0/24)"),
        Range(prefix: [192, 0, 2, 0], length: 24, name: "documentation (192.0.2.0/24)"),
        Range(prefix: [192, 31, 196, 0], length: 24, name: "AS112 (192.31.196.0/24)"),
        Range(prefix: [192, 52, 193, 0], length: 24, name: "AMT (192.52.193.0/24)"),
        Range(prefix: [192, 88, 99, 0], length: 24, name: "6to4 relay anycast (192.88.99.0/24)"),
        Range(prefix: [192, 168, 0, 0], length: 16, name: "private (192.168.0.0/16)"),
        Range(prefix: [192, 175, 48, 0], length: 24, name: "AS112 direct delegation (192.175.48.0/24)"),
        Range(prefix: [198, 18, 0, 0], length: 15, name: "benchmarking (198.18.0.0/15)"),
        Range(prefix: [198, 51, 100, 0], length: 24, name: "documentation (198.51.100.0/24)"),
        Range(prefix: [203, 0, 113, 0], length: 24, name: "documentation (203.0.113.0/24)"),
        Range(prefix: [224, 0, 0, 0], length: 4, name: "multicast (224.0.0.0/4)"),
        Range(prefix: [240, 0, 0, 0], length: 4, name: "reserved and broadcast (240.0.0.0/4)"),
    ]

    static let ipv6: [Range] = [
        Range(
            prefix: [0x20, 0x01] + Array(repeating: 0, count: 14), length: 23,
            name: "IETF protocol assignments and Teredo (2001::/23)"),
        Range(
            prefix: [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 12), length: 32, name: "documentation (2001:db8::/32)"),
        Range(prefix: [0x20, 0x02] + Array(repeating: 0, count: 14), length: 16, name: "6to4 (2002::/16)"),
        Range(prefix: [0x3F, 0xFF] + Array(repeating: 0, count: 14), length: 20, name: "documentation (3fff::/20)"),
        Range(prefix: [0x5F, 0x00] + Array(repeating: 0, count: 14), length: 16, name: "SRv6 SIDs (5f00::/16)"),
    ]

    /// Why a fetch must not connect to the IPv4 address `bytes` (4 of them), or nil when it may.
    public static func refusal(ipv4 bytes: [UInt8]) -> String? {
        guard bytes.count == 4 else { return "not an IPv4 address" }
        return ipv4.first { $0.contains(bytes) }?.name
    }

    /// Why a fetch must not connect to the IPv6 address `bytes` (16 of them), or nil when it may.
    public static func refusal(ipv6 bytes: [UInt8]) -> String? {
        guard bytes.count == 16 else { return "not an IPv6 address" }
        let firstTwelve = Array(bytes[0..<12])
        if firstTwelve == Array(repeating: 0, count: 10) + [0xFF, 0xFF] {
            return refusal(ipv4: Array(bytes[12..<16])).map { "IPv4-mapped \($0)" }
        }
        if firstTwelve == [0, 0x64, 0xFF, 0x9B] + Array(repeating: 0, count: 8) {
            return refusal(ipv4: Array(bytes[12..<16])).map { "NAT64 of \($0)" }
        }
        if firstTwelve == Array(repeating: 0, count: 12) {
            if bytes[12..<16].allSatisfy({ $0 == 0 }) { return "unspecified (::)" }
            if bytes[12..<15].allSatisfy({ $0 == 0 }), bytes[15] == 1 { return "loopback (::1)" }
            return "IPv4-compatible (::/96, deprecated)"
        }
        // NB: only global unicast (2000::/3) is public; unique-local fc00::/7 (which holds fd00:ec2::254),
        // link-local fe80::/10, site-local fec0::/10, multicast ff00::/8 and the unassigned rest are not.
        guard bytes[0] & 0xE0 == 0x20 else {
            switch bytes[0] {
            case 0xFC, 0xFD: return "unique local (fc00::/7)"
            case 0xFE where bytes[1] & 0xC0 == 0x80: return "link-local (fe80::/10)"
            case 0xFE where bytes[1] & 0xC0 == 0xC0: return "site-local (fec0::/10)"
            case 0xFF: return "multicast (ff00::/8)"
            default: return "outside global unicast (2000::/3)"
            }
        }
        if let special = ipv6.first(where: { $0.contains(bytes) }) { return special.name }
        return nil
    }

    /// Why a fetch must not connect to `host` when it is an IP literal; nil for names (resolve them
    /// and check every address) and public literals.
    public static func refusal(_ host: URLHost) -> String? {
        switch host {
        case .name: nil
        case .ipv4(let bytes): refusal(ipv4: bytes)
        case .ipv6(let bytes): refusal(ipv6: bytes)
        }
    }
}
