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

}  // namespace

extern "C" int lsmeta_copy(const char *source, const char *target, const lsmeta_options *options, char *message,
                           size_t message_size) {
    // The XMP toolkit's one-time set-up is not thread-safe.
    static std::once_flag once;
    std::call_once(once, [] {
        Exiv2::XmpParser::initialize();
        Exiv2::enableBMFF(true);  // reading a HEIF or AVIF source's EXIF and XMP
    });
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
