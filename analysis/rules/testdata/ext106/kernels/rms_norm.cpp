#include <cstdint>

template <typename T>
__aicore__ inline T from_u64(uint64_t v)
{
    union { uint32_t u; T f; } c;
    c.u = static_cast<uint32_t>(v);
    return c.f;
}

__aicore__ inline int64_t wide_arg(__gm__ int64_t *args, int i)
{
    return static_cast<int64_t>(args[i]);
}

// Copies the slot's bits into its type argument: the low word of a 32-bit
// type, so an INT32 keeps its sign and an FP32 is its bits.
template <typename T>
__aicore__ inline T slot_bits(__gm__ int64_t *args, int i)
{
    uint64_t raw = static_cast<uint64_t>(args[i]);
    T value;
    if constexpr (sizeof(T) == 4) {
        uint32_t low = static_cast<uint32_t>(raw);
        __builtin_memcpy(&value, &low, sizeof(T));
    } else {
        __builtin_memcpy(&value, &raw, sizeof(T));
    }
    return value;
}

// Bit-casts the slot through a union: the result is the float itself.
__aicore__ inline float eps_bits_of(__gm__ int64_t *args, int i)
{
    union {
        uint32_t u;
        float f;
    } bits;
    bits.u = static_cast<uint32_t>(static_cast<uint64_t>(args[i]));
    return bits.f;
}

__aicore__ inline float eps_by_bits(__gm__ int64_t *args, int i) { return from_u64<float>(args[i]); }

template <typename T>
__aicore__ inline T scalar_as(__gm__ int64_t *args, int i)
{
    return static_cast<T>(args[i]);
}

// A decoder per type: the primary converts by value, the float
// specialisation bit-casts.
template <typename T>
struct SlotDecode {
    __aicore__ static inline T From(int64_t raw) { return static_cast<T>(raw); }
};

template <>
struct SlotDecode<float> {
    __aicore__ static inline float From(int64_t raw)
    {
        union { uint32_t u; float f; } v;
        v.u = static_cast<uint32_t>(raw);
        return v.f;
    }
};

template <typename T>
__aicore__ inline T slot_value(__gm__ int64_t *args, int i)
{
    return SlotDecode<T>::From(args[i]);
}

// A decoder with no specialisation: every type converts by value.
template <typename T>
__aicore__ inline T by_value(int64_t raw)
{
    return static_cast<T>(raw);
}

template <typename T>
__aicore__ inline T slot_by_value(__gm__ int64_t *args, int i)
{
    return by_value<T>(args[i]);
}

// Typed readers as a class template: the primary converts the slot by
// value, each explicit specialisation reads its own type.
template <typename T>
struct SlotReader {
    __aicore__ static inline T Read(__gm__ int64_t *args, int slot) { return static_cast<T>(args[slot]); }
};

template <>
struct SlotReader<int32_t> {
    __aicore__ static inline int32_t Read(__gm__ int64_t *args, int slot) { return static_cast<int32_t>(args[slot]); }
};

template <>
struct SlotReader<float> {
    __aicore__ static inline float Read(__gm__ int64_t *args, int slot)
    {
        union { uint32_t u; float f; } v;
        v.u = static_cast<uint32_t>(args[slot]);
        return v.f;
    }
};

// The scalars follow the tensors: a scalar's slot is the tensor count
// plus its position among the scalars.
template <typename Elem>
__aicore__ inline Elem scalar_after(__gm__ int64_t *args, int num_tensors, int pos)
{
    return SlotReader<Elem>::Read(args, num_tensors + pos);
}

extern "C" __global__ __aicore__ void rms_norm(__gm__ int64_t *args)
{
    // Right reads: silent.
    float eps_ok = from_u64<float>(args[2]);
    int32_t rows_ok = static_cast<int32_t>(args[3]);
    int64_t rows_widened = static_cast<int32_t>(args[3]);
    int64_t start = args[4];
    uint64_t start2 = static_cast<uint64_t>(args[4]);
    int32_t shift_ok = args[5];
    uint32_t eps_bits = static_cast<uint32_t>(args[2]);
    union { uint32_t u; float f; } eps_union;
    eps_union.u = static_cast<uint32_t>(args[2]);

    // Wrong reads.
    float eps = (float)args[2];                     // want "args\\[2\\] is FP32 scalar `eps` of extern `rms_norm`.*`\\(float\\)args\\[2\\]`.*from_u64<float>"
    float eps2 = static_cast<float>(args[2]);       // want "FP32 scalar `eps`"
    double eps3 = args[2];                          // want "FP32 scalar `eps`"
    float eps4 = static_cast<float>(static_cast<uint32_t>(args[2]));  // want "FP32 scalar `eps`.*`static_cast<float>\\(static_cast<uint32_t>\\(args\\[2\\]\\)\\)` \\(an integer cast that keeps the bits, then a conversion to float\\)"
    float eps5 = static_cast<int32_t>(args[2]);     // want "FP32 scalar `eps`.*an integer cast that keeps the bits"
    float eps6 = scalar_as<float>(args, 2);        // want "FP32 scalar `eps`.*the helper `scalar_as`, a value conversion"
    int32_t rows_as = scalar_as<int32_t>(args, 3);
    int64_t rows = args[3];                         // want "args\\[3\\] is INT32 scalar `rows`.*as `int64_t`.*static_cast<int32_t>"
    int64_t shift = static_cast<int64_t>(args[5]);  // want "INT32 scalar `shift`"
    int64_t shift2 = wide_arg(args, 5);             // want "INT32 scalar `shift`.*through `wide_arg`, which reads it as `int64_t`"
    float eps7 = slot_value<float>(args, 2);
    int32_t rows7 = slot_value<int32_t>(args, 3);
    int64_t shift3 = slot_value<int64_t>(args, 5);  // want "INT32 scalar `shift`.*through `slot_value`, which reads it as `int64_t`"
    float eps8 = slot_by_value<float>(args, 2);     // want "FP32 scalar `eps`.*the helper `slot_by_value`, a value conversion"
    float eps9 = scalar_after<float>(args, 2, 0);
    int32_t rows9 = scalar_after<int32_t>(args, 2, 1);
    int64_t shift4 = scalar_after<int64_t>(args, 2, 3);  // want "INT32 scalar `shift`.*through `scalar_after`, which reads it as `int64_t`"
    double eps10 = scalar_after<double>(args, 2, 0);     // want "FP32 scalar `eps`.*the helper `scalar_after`, a value conversion"
    double eps11 = SlotReader<double>::Read(args, 2);    // want "FP32 scalar `eps`.*the helper `Read`, a value conversion"
    float eps12 = SlotReader<float>::Read(args, 2);
    (void)eps9; (void)rows9; (void)shift4; (void)eps10; (void)eps11; (void)eps12;
    // A bit-casting helper's float converted on (to half): a value.
    half eps_h = static_cast<half>(eps_bits_of(args, 2));
    half eps_h2 = static_cast<half>(eps_by_bits(args, 2));
    (void)eps_h; (void)eps_h2;
    int32_t rows_bits = slot_bits<int32_t>(args, 3);
    float eps_copied = slot_bits<float>(args, 2);
    (void)rows_bits; (void)eps_copied;
    (void)eps7; (void)rows7; (void)shift3; (void)eps8;
    (void)eps_bits; (void)eps_union; (void)eps4; (void)eps5; (void)eps6; (void)rows_as;
    (void)eps_ok; (void)rows_ok; (void)rows_widened; (void)start; (void)start2; (void)shift_ok;
    (void)eps; (void)eps2; (void)eps3; (void)rows; (void)shift; (void)shift2;
}
