#include "metadata.h"

// exiv2 0.27's public types are std::auto_ptr, deprecated in C++17 but still in libstdc++.
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
#include <exiv2/exiv2.hpp>

#include <cstdio>
#include <mutex>
#include <string>

namespace {

void say(char *message, size_t size, const std::string &text) {
    if (message != nullptr && size > 0) std::snprintf(message, size, "%s", text.c_str());
}

// IFD0 tags that describe a TIFF's own pixel layout: the target's are right, the source's would break it.
bool isLayoutTag(const std::string &key) {
    static const char *const layout[] = {
        "Exif.Image.NewSubfileType", "Exif.Image.SubfileType", "Exif.Image.ImageWidth", "Exif.Image.ImageLength",
        "Exif.Image.BitsPerSample", "Exif.Image.Compression", "Exif.Image.PhotometricInterpretation",
        "Exif.Image.StripOffsets", "Exif.Image.SamplesPerPixel", "Exif.Image.RowsPerStrip",
        "Exif.Image.StripByteCounts", "Exif.Image.PlanarConfiguration", "Exif.Image.Predictor",
        "Exif.Image.TileWidth", "Exif.Image.TileLength", "Exif.Image.TileOffsets", "Exif.Image.TileByteCounts",
        "Exif.Image.ExtraSamples", "Exif.Image.SampleFormat", "Exif.Image.FillOrder",
        // The ICC written with the pixels is the right one; the source's would contradict it.
        "Exif.Image.InterColorProfile",
    };
    for (const char *tag : layout) {
        if (key == tag) return true;
    }
    return false;
}

template <typename Data, typename Pred> void eraseIf(Data &data, Pred pred) {
    for (auto it = data.begin(); it != data.end();) {
        it = pred(it->key()) ? data.erase(it) : std::next(it);
    }
}

// exiv2's XMP toolkit needs one set-up before any read, which is not thread-safe.
void initialise() {
    static std::once_flag once;
    std::call_once(once, [] {
        Exiv2::XmpParser::initialize();
        Exiv2::enableBMFF(true);  // reading a HEIF or AVIF file's EXIF and XMP
    });
}

// The tag `key` as text with surrounding blanks trimmed ("" when absent or blank).
std::string tagText(const Exiv2::ExifData &exif, const char *key) {
    auto it = exif.findKey(Exiv2::ExifKey(key));
    if (it == exif.end()) return "";
    std::string text = it->toString();
    // ASCII tags are often padded with blanks or NULs to a fixed length.
    const std::string blank(" \t\0", 3);
    const auto first = text.find_first_not_of(blank);
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(blank) - first + 1);
}

}  // namespace

extern "C" int lsmeta_read_capture(const char *path, lsmeta_capture *capture, char *message, size_t message_size) {
    initialise();
    *capture = lsmeta_capture{};
    // Every photo of a card is read, so a malformed one must fail alone: no exception may reach Swift.
    try {
        auto image = Exiv2::ImageFactory::open(path);
        image->readMetadata();
        const Exiv2::ExifData &exif = image->exifData();
        // Not Exif.Image.DateTime: editing the file rewrites it.
        const std::string original = tagText(exif, "Exif.Photo.DateTimeOriginal");
        const std::string time = original.empty() ? tagText(exif, "Exif.Photo.DateTimeDigitized") : original;
        const std::string subseconds = tagText(exif, original.empty() ? "Exif.Photo.SubSecTimeDigitized"
                                                                      : "Exif.Photo.SubSecTimeOriginal");
        std::string camera;
        for (const char *key : {"Exif.Image.Make", "Exif.Image.Model", "Exif.Photo.BodySerialNumber"}) {
            const std::string part = tagText(exif, key);
            if (!part.empty()) camera += (camera.empty() ? "" : " ") + part;
        }
        std::snprintf(capture->time, sizeof capture->time, "%s", time.c_str());
        std::snprintf(capture->subseconds, sizeof capture->subseconds, "%s", subseconds.c_str());
        std::snprintf(capture->camera, sizeof capture->camera, "%s", camera.c_str());
    } catch (const std::exception &error) {
        *capture = lsmeta_capture{};
        say(message, message_size, error.what());
        return LSMETA_ERR_SOURCE;
    } catch (...) {
        *capture = lsmeta_capture{};
        say(message, message_size, "unreadable metadata");
        return LSMETA_ERR_SOURCE;
    }
    return LSMETA_OK;
}

extern "C" int lsmeta_copy(const char *source, const char *target, const lsmeta_options *options, char *message,
                           size_t message_size) {
    initialise();
    Exiv2::ExifData exif;
    Exiv2::XmpData xmp;
    Exiv2::IptcData iptc;
    if (!options->strip_all) {
        try {
            auto image = Exiv2::ImageFactory::open(source);
            image->readMetadata();
            exif = image->exifData();
            xmp = image->xmpData();
            iptc = image->iptcData();
        } catch (const Exiv2::AnyError &error) {
            say(message, message_size, error.what());
            return LSMETA_ERR_SOURCE;
        }
    }
    Exiv2::Image::AutoPtr out;
    try {
        out = Exiv2::ImageFactory::open(target);
        out->readMetadata();
    } catch (const Exiv2::AnyError &error) {
        say(message, message_size, error.what());
        return LSMETA_ERR_TARGET;
    }
    const int type = out->imageType();
    if (type == Exiv2::ImageType::bmff) {
        say(message, message_size, "exiv2 cannot write metadata into HEIF or AVIF files");
        return LSMETA_UNSUPPORTED;
    }
    if (options->strip_all) {
        exif.clear();
        xmp.clear();
        iptc.clear();
    } else {
        // A thumbnail shows the ungraded picture; the layout and ICC tags describe the source's file.
        Exiv2::ExifThumb(exif).erase();
        eraseIf(exif, [](const std::string &key) { return isLayoutTag(key); });
        if (options->strip_gps) {
            eraseIf(exif, [](const std::string &key) { return key.rfind("Exif.GPSInfo.", 0) == 0; });
            eraseIf(xmp, [](const std::string &key) { return key.rfind("Xmp.exif.GPS", 0) == 0; });
        }
        // Keep the target's own layout tags (a TIFF's) by merging into its EXIF rather than replacing it.
        Exiv2::ExifData merged = out->exifData();
        for (const auto &datum : exif) merged[datum.key()] = datum.value();
        exif = merged;
        // The pixels were turned upright when decoded.
        if (!exif.empty()) exif["Exif.Image.Orientation"] = uint16_t(1);
        if (xmp.findKey(Exiv2::XmpKey("Xmp.tiff.Orientation")) != xmp.end()) xmp["Xmp.tiff.Orientation"] = "1";
        if (options->width > 0 && options->height > 0 && !exif.empty()) {
            exif["Exif.Photo.PixelXDimension"] = uint32_t(options->width);
            exif["Exif.Photo.PixelYDimension"] = uint32_t(options->height);
            if (xmp.findKey(Exiv2::XmpKey("Xmp.exif.PixelXDimension")) != xmp.end()) {
                xmp["Xmp.exif.PixelXDimension"] = std::to_string(options->width);
                xmp["Xmp.exif.PixelYDimension"] = std::to_string(options->height);
            }
        }
        if (options->color_space != 0 && !exif.empty()) {
            exif["Exif.Photo.ColorSpace"] = uint16_t(options->color_space);
        }
        if (options->software != nullptr && !exif.empty()) exif["Exif.Image.Software"] = options->software;
        if (options->software != nullptr && !xmp.empty()) xmp["Xmp.xmp.CreatorTool"] = options->software;
    }
    try {
        out->setExifData(exif);
        out->setXmpData(xmp);
        if (type == Exiv2::ImageType::jpeg || type == Exiv2::ImageType::tiff) out->setIptcData(iptc);
        out->writeMetadata();
    } catch (const Exiv2::AnyError &error) {
        say(message, message_size, error.what());
        return LSMETA_ERR_TARGET;
    }
    return LSMETA_OK;
}
